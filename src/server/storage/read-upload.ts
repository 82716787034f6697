import { TRPCError } from "@trpc/server";
import { checkImage, MAX_UPLOAD_BYTES, sanitiseFileName, UPLOAD_MESSAGES, type ImageType } from "./image-check";

export const UNSAFE_NAME_MESSAGE = "That file name is not allowed. Please rename the file and try again.";

export interface CheckedUpload {
  bytes: Uint8Array;
  type: ImageType;
  /** Safe to use as the last segment of a storage path. */
  fileName: string;
}

/**
 * Reads an uploaded image and checks it by content (image-check.ts) and by name (no paths).
 * Anything wrong is a BAD_REQUEST with the message to show; nothing has been stored yet.
 */
export async function readImageUpload(file: File): Promise<CheckedUpload> {
  if (/[\\/]|\.\./.test(file.name) || file.name.length > 255) {
    throw new TRPCError({ code: "BAD_REQUEST", message: UNSAFE_NAME_MESSAGE });
  }
  // Refuse by size before reading anything into memory.
  if (file.size > MAX_UPLOAD_BYTES) throw new TRPCError({ code: "BAD_REQUEST", message: UPLOAD_MESSAGES.too_large });
  const bytes = new Uint8Array(await file.arrayBuffer());
  const image = checkImage(bytes);
  if (!image.ok) throw new TRPCError({ code: "BAD_REQUEST", message: image.message });
  return { bytes, type: image.type, fileName: sanitiseFileName(file.name, image.type) };
}
