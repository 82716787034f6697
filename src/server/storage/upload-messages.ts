import type { PdfRefusal } from "./pdf-check";
import type { UndecodableReason } from "./reencode-image";

/**
 * What the customer reads when an upload is refused after its content was examined: plain words
 * and something they can do about it (usually: send the file as saved, or a screenshot).
 */

/** Messages for a PDF proof of payment that `checkPdfProof` refused, by reason. */
export const PDF_REFUSAL_MESSAGES: Record<PdfRefusal, string> = {
  unreadable: "We couldn't open this PDF. Please upload it again or send a screenshot.",
  encrypted: "This PDF is password-protected. Please upload an unprotected copy or a screenshot.",
  too_many_pages: "This PDF has more than 20 pages. Please upload just the proof of payment.",
  active_content:
    "This PDF contains scripts or attachments, which we can't accept. Please upload the proof as saved from your banking app, or a screenshot of it.",
};

/** Messages for an image that `reencodeImage` could not re-encode, by `UndecodableImageError.reason`. */
export const IMAGE_REENCODE_MESSAGES: Record<UndecodableReason, string> = {
  undecodable: "We couldn't read this image. Please save it again as a JPEG or PNG and upload it, or send a screenshot.",
  too_many_pixels: "This image is too large to process. Please upload a smaller version of it.",
};
