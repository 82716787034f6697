/**
 * What an upload may be, checked in the browser before a byte is sent (the server checks again,
 * by content: src/server/storage/read-upload.ts). The browser knows a file's size for certain and
 * its type only by the name and what the system says (`File.type`): a type it does not know is
 * left to the server.
 */
import { messages } from "./messages";

/** The largest file the shop takes (5 MB), but for a logo added to a line (MAX_LOGO_BYTES). */
export const MAX_UPLOAD_BYTES = 5 * 1024 * 1024;

/** The largest logo (or other file) a customer adds to a line: 10 MB, as the personalisation bucket allows. */
export const MAX_LOGO_BYTES = 10 * 1024 * 1024;

/** The image types the shop stores. */
export const UPLOAD_IMAGE_TYPES = ["image/jpeg", "image/png", "image/webp", "image/gif"] as const;

/** What a file input takes: pictures (product image, profile picture) or a proof of payment (also PDF). */
export type UploadKind = "image" | "proof";

/** The `accept` attribute for each kind. */
export const UPLOAD_ACCEPT: Record<UploadKind, string> = {
  image: `${UPLOAD_IMAGE_TYPES.join(",")},.jpg,.jpeg,.png,.webp,.gif`,
  proof: `${UPLOAD_IMAGE_TYPES.join(",")},application/pdf,.jpg,.jpeg,.png,.webp,.gif,.pdf`,
};

const extensionTypes: Record<string, string> = {
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  png: "image/png",
  webp: "image/webp",
  gif: "image/gif",
  pdf: "application/pdf",
};

/** The file's type as the browser can tell it: the system's MIME type, else its name's extension, else null (unknown). */
function apparentType(file: { name: string; type: string }): string | null {
  if (file.type) return file.type.toLowerCase();
  const extension = /\.([a-z0-9]+)$/i.exec(file.name)?.[1]?.toLowerCase();
  return (extension && extensionTypes[extension]) ?? null;
}

/** Why `file` may not be uploaded as `kind` (the message to show), or null when it may be sent. */
export function uploadProblem(file: { name: string; type: string; size: number }, kind: UploadKind): string | null {
  // In the server's order: the size first, then emptiness, then the type.
  const m = messages.upload;
  if (file.size > MAX_UPLOAD_BYTES) return m.too_large;
  if (file.size === 0) return m.empty;
  const type = apparentType(file);
  const allowed: readonly string[] = kind === "proof" ? [...UPLOAD_IMAGE_TYPES, "application/pdf"] : UPLOAD_IMAGE_TYPES;
  if (type !== null && !allowed.includes(type)) return kind === "proof" ? m.not_a_proof : m.not_an_image;
  return null;
}
