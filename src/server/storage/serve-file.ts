import type { TRPCContext } from "@/server/api/trpc";
import { BUCKETS, PUBLIC_BUCKETS, type Bucket } from "@/server/ports/storage";
import { IMAGE_EXTENSIONS, type ImageType } from "@/server/storage/image-check";

const SERVED_TYPES = new Set(Object.keys(IMAGE_EXTENSIONS));

function notFound() {
  return new Response("Not found", { status: 404, headers: { "cache-control": "no-store", "x-content-type-options": "nosniff" } });
}

/**
 * A stored file for the caller in `ctx`, or 404. Access is decided by the storage policies: the
 * object's row is read as the caller, so a private proof of payment reaches only its owner and
 * admins (anyone else learns nothing, not even that it exists). Files are served as the image
 * type their content was checked to be, never executed.
 */
export async function serveStoredFile(ctx: Pick<TRPCContext, "db" | "storage">, bucket: string, segments: string[]): Promise<Response> {
  // Supabase serves its files itself: this route is the local adapter's.
  if (ctx.storage.provider !== "local" || !BUCKETS.includes(bucket as Bucket)) return notFound();
  const object = { bucket: bucket as Bucket, path: segments.join("/") };
  const row = await ctx.db.transaction((trx) =>
    trx
      .selectFrom("storage.objects")
      .select(["metadata", "updated_at"])
      .where("bucket_id", "=", object.bucket)
      .where("name", "=", object.path)
      .executeTakeFirst(),
  );
  if (!row) return notFound();
  const type = (row.metadata as { mimetype?: string } | null)?.mimetype;
  if (!type || !SERVED_TYPES.has(type)) return notFound();

  const bytes = await ctx.storage.read(object);
  if (!bytes) return notFound();

  const isPublic = PUBLIC_BUCKETS.includes(object.bucket);
  const fileName = segments.at(-1) ?? `file.${IMAGE_EXTENSIONS[type as ImageType]}`;
  return new Response(Buffer.from(bytes), {
    headers: {
      "content-type": type,
      "content-length": String(bytes.length),
      "content-disposition": `inline; filename="${fileName.replace(/[^A-Za-z0-9._-]/g, "_")}"`,
      "x-content-type-options": "nosniff",
      "content-security-policy": "default-src 'none'; sandbox",
      // Paths carry a timestamp, so a public file never changes; private ones are never cached by others.
      "cache-control": isPublic ? "public, max-age=31536000, immutable" : "private, no-store",
    },
  });
}

