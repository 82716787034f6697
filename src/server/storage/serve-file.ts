import { objectMetadata } from "./storage-queries";
import type { TRPCContext } from "@/server/api/trpc";
import { BUCKETS, PUBLIC_BUCKETS, type Bucket } from "@/server/ports/storage";
import { FILE_EXTENSIONS, type StoredFileType } from "@/server/storage/image-check";
import { renderPdfFirstPage } from "@/server/storage/pdf-preview";

const SERVED_TYPES = new Set(Object.keys(FILE_EXTENSIONS));

function notFound() {
  return new Response("Not found", { status: 404, headers: { "cache-control": "no-store", "x-content-type-options": "nosniff" } });
}

/** Images run nothing in a sandbox; a PDF needs the browser's viewer, which a sandbox blocks, so it gets a policy that allows no script or other content at all. */
const POLICY: Record<"image" | "pdf", string> = {
  image: "default-src 'none'; sandbox",
  pdf: "default-src 'none'; script-src 'none'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'self'",
};

/**
 * A stored file for the caller in `ctx`, or 404. Access is decided by the storage policies: the
 * object's row is read as the caller, so a private proof of payment reaches only its owner and
 * admins (anyone else learns nothing, not even that it exists). Files are served as the type
 * their content was checked to be, never executed. `preview` asks for a PDF proof's first page
 * as a PNG (the admin's proof modal).
 */
export async function serveStoredFile(ctx: Pick<TRPCContext, "db" | "storage">, bucket: string, segments: string[], options: { preview?: boolean } = {}): Promise<Response> {
  // Supabase serves its files itself: this route is the local adapter's.
  if (ctx.storage.provider !== "local" || !BUCKETS.includes(bucket as Bucket)) return notFound();
  const object = { bucket: bucket as Bucket, path: segments.join("/") };
  const isPublic = PUBLIC_BUCKETS.includes(object.bucket);
  const metadata = await ctx.db.transaction((trx) => objectMetadata(trx, object, isPublic));
  if (!metadata) return notFound();
  const type = (metadata as { mimetype?: string }).mimetype;
  if (!type || !SERVED_TYPES.has(type)) return notFound();

  const bytes = await ctx.storage.read(object);
  if (!bytes) return notFound();

  const cacheControl = isPublic ? "public, max-age=31536000, immutable" : "private, no-store";
  if (options.preview) {
    if (type !== "application/pdf") return notFound();
    const png = await renderPdfFirstPage(bytes);
    return new Response(Buffer.from(png), {
      headers: { "content-type": "image/png", "x-content-type-options": "nosniff", "content-security-policy": POLICY.image, "cache-control": cacheControl },
    });
  }
  const fileName = segments.at(-1) ?? `file.${FILE_EXTENSIONS[type as StoredFileType]}`;
  return new Response(Buffer.from(bytes), {
    headers: {
      "content-type": type,
      "content-length": String(bytes.length),
      "content-disposition": `inline; filename="${fileName.replace(/[^A-Za-z0-9._-]/g, "_")}"`,
      "x-content-type-options": "nosniff",
      "content-security-policy": POLICY[type === "application/pdf" ? "pdf" : "image"],
      // Paths carry a timestamp, so a public file never changes; private ones are never cached by others.
      "cache-control": cacheControl,
    },
  });
}
