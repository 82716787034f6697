import type { TRPCContext } from "@/server/api/trpc";
import type { SessionUser } from "@/server/auth/session-user";
import type { StoredObject } from "@/server/ports/storage";
import { readUpload } from "@/server/storage/read-upload";
import { storeThenWrite, timestampedName } from "@/server/storage/store-upload";

/**
 * Stores a file a customer adds to a line (a logo to embroider) before the line is added:
 * checked by content (PNG, JPEG, WebP or PDF up to 10 MB; images re-encoded without metadata),
 * at personalisation/{uid}/{timestamp}_{filename}, private to the customer and admins. The line
 * then names it (cart.add); a file no line names is removed a week later
 * (public.unused_personalisation_files, src/server/privacy/retention.ts).
 */
export async function uploadPersonalisationFile({
  ctx,
  input,
}: {
  ctx: Pick<TRPCContext, "db" | "storage"> & { user: SessionUser };
  input: { file: File };
}): Promise<{ path: string; fileName: string }> {
  const upload = await readUpload(input.file, "logo");
  const object: StoredObject = { bucket: "personalisation", path: `${ctx.user.id}/${timestampedName(upload.fileName)}` };
  await storeThenWrite(ctx, { object, bytes: upload.bytes, contentType: upload.type }, async () => undefined);
  return { path: object.path, fileName: upload.fileName };
}
