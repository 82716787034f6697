import { TRPCError } from "@trpc/server";
import { MAX_LOGO_BYTES } from "@/lib/upload-rules";
import { checkImage, looksLikePdf, MAX_UPLOAD_BYTES, sanitiseFileName, UPLOAD_MESSAGES, type StoredFileType } from "./image-check";
import { checkPdfProof } from "./pdf-check";
import { IMAGE_MAX_SIDE, reencodeImage, UndecodableImageError } from "./reencode-image";
import { IMAGE_REENCODE_MESSAGES, PDF_REFUSAL_MESSAGES } from "./upload-messages";

export const UNSAFE_NAME_MESSAGE = "That file name is not allowed. Please rename the file and try again.";

/** What an upload is for: decides what it may be and how large an image is kept. */
export type UploadPurpose = keyof typeof IMAGE_MAX_SIDE;

export interface CheckedUpload {
  /** What is stored: a re-encoded image (no metadata), or the proof PDF as it came. */
  bytes: Uint8Array;
  type: StoredFileType;
  /** Safe to use as the last segment of a storage path. */
  fileName: string;
}

const refuse = (message: string) => new TRPCError({ code: "BAD_REQUEST", message });

/**
 * Reads an upload and checks it by content (docs/architecture.md#files), never by its name or MIME type:
 * - images (JPEG, PNG, WebP, GIF) are checked, then decoded and re-encoded without their
 *   metadata (EXIF, GPS, XMP), orientation applied, the longest side capped for `purpose`;
 * - proofs of payment may also be PDF, which must open, be unencrypted, have at most 20 pages
 *   and carry no scripts, actions, attachments, XFA or media; they are stored as they came;
 * - a logo added to a line (personalisation) may be PNG, JPEG, WebP or PDF (the same PDF rules),
 *   up to MAX_LOGO_BYTES; never GIF or SVG.
 * Anything wrong is a BAD_REQUEST with the message to show; nothing has been stored yet.
 */
export async function readUpload(file: File, purpose: UploadPurpose): Promise<CheckedUpload> {
  if (/[\\/]|\.\./.test(file.name) || file.name.length > 255) throw refuse(UNSAFE_NAME_MESSAGE);
  const logo = purpose === "logo";
  const maxBytes = logo ? MAX_LOGO_BYTES : MAX_UPLOAD_BYTES;
  // Refuse by size before reading anything into memory.
  if (file.size > maxBytes) throw refuse(logo ? UPLOAD_MESSAGES.logo_too_large : UPLOAD_MESSAGES.too_large);
  const bytes = new Uint8Array(await file.arrayBuffer());

  if ((purpose === "proof" || logo) && looksLikePdf(bytes)) {
    const verdict = await checkPdfProof(bytes);
    if (!verdict.ok) throw refuse(PDF_REFUSAL_MESSAGES[verdict.reason]);
    return { bytes, type: "application/pdf", fileName: sanitiseFileName(file.name, "application/pdf") };
  }

  const image = checkImage(bytes, maxBytes);
  if (logo && (!image.ok ? image.reason === "not_an_image" : image.type === "image/gif")) throw refuse(UPLOAD_MESSAGES.not_a_logo);
  if (!image.ok) throw refuse(purpose === "proof" && image.reason === "not_an_image" ? UPLOAD_MESSAGES.not_a_proof : logo && image.reason === "too_large" ? UPLOAD_MESSAGES.logo_too_large : image.message);
  let clean: Uint8Array;
  try {
    clean = await reencodeImage(bytes, image.type, IMAGE_MAX_SIDE[purpose]);
  } catch (error) {
    if (error instanceof UndecodableImageError) throw refuse(IMAGE_REENCODE_MESSAGES[error.reason]);
    throw error;
  }
  return { bytes: clean, type: image.type, fileName: sanitiseFileName(file.name, image.type) };
}
