import sharp, { type FormatEnum, type Sharp } from "sharp";

/**
 * Re-encodes every uploaded photo before it is stored (POPIA: a phone photo carries the place it
 * was taken, the phone and often the owner's name). Decoding to pixels and encoding afresh keeps
 * nothing of the original file but the picture: EXIF (with GPS), XMP, IPTC, comments and the ICC
 * profile are gone, colours are converted to sRGB, the EXIF orientation is applied to the pixels,
 * and anything smuggled into the file's structure (polyglots, trailing data) is left behind.
 */

/** The image types the shop stores; the output is always the same type as the input. */
export type ReencodableType = "image/jpeg" | "image/png" | "image/webp" | "image/gif";

/** Longest side, in pixels, each kind of stored image is scaled down to (never up). */
export const IMAGE_MAX_SIDE = { product: 2000, avatar: 512, proof: 3000, logo: 3000 } as const;

/**
 * Decompression-bomb guard: the most pixels sharp may decode for one upload, summed over all
 * frames of an animation (a 5 MB GIF can hold thousands of large, well-compressed frames).
 */
export const MAX_DECODED_PIXELS = 50_000_000;

/** Why an image could not be re-encoded. */
export type UndecodableReason = "undecodable" | "too_many_pixels";

/** The upload is not an image sharp can decode as its claimed type, or it decodes to too many pixels. */
export class UndecodableImageError extends Error {
  readonly reason: UndecodableReason;

  constructor(reason: UndecodableReason, options?: { cause?: unknown }) {
    super(reason === "too_many_pixels" ? "The image decodes to too many pixels." : "The image could not be decoded.", options);
    this.name = "UndecodableImageError";
    this.reason = reason;
  }
}

const SHARP_FORMAT: Record<ReencodableType, keyof FormatEnum> = {
  "image/jpeg": "jpeg",
  "image/png": "png",
  "image/webp": "webp",
  "image/gif": "gif",
};

// A hung decoder must not hold an upload request (and a libvips thread) for ever.
const TIMEOUT_SECONDS = 30;

/**
 * Decodes `bytes` as `type` and encodes it again as `type`: no metadata, sRGB, upright, longest
 * side at most `maxSide` (smaller images keep their size). Animated GIFs and WebPs stay animated.
 * Throws `UndecodableImageError` for anything sharp cannot decode as that type.
 */
export async function reencodeImage(bytes: Uint8Array, type: ReencodableType, maxSide: number): Promise<Uint8Array> {
  if (!Number.isInteger(maxSide) || maxSide < 1) throw new RangeError(`maxSide must be a positive integer, not ${maxSide}`);
  if (!(type in SHARP_FORMAT)) throw new RangeError(`Unsupported image type: ${String(type)}`);
  if (bytes.length === 0) throw new UndecodableImageError("undecodable");

  const animated = type === "image/gif" || type === "image/webp";
  const input = () =>
    sharp(bytes, {
      animated,
      limitInputPixels: MAX_DECODED_PIXELS,
      // "error" also stops at truncated data. The stricter "warning" would refuse photos whose
      // only fault is a benign decoder warning (common in JPEGs passed through messaging apps);
      // nothing of the original survives re-encoding, so tolerating those costs no safety.
      failOn: "error",
    });

  let pipeline: Sharp;
  try {
    const metadata = await input().metadata();
    // Decode only the type the upload was checked to be: sharp also reads SVG, TIFF, HEIF and
    // more, whose decoders are no business of an image upload.
    if (metadata.format !== SHARP_FORMAT[type]) throw new UndecodableImageError("undecodable");
    // With `animated`, height is the height of all frames stacked: the total that gets decoded.
    if (metadata.width * metadata.height > MAX_DECODED_PIXELS) throw new UndecodableImageError("too_many_pixels");
    pipeline = input()
      .autoOrient()
      .resize({ width: maxSide, height: maxSide, fit: "inside", withoutEnlargement: true })
      .timeout({ seconds: TIMEOUT_SECONDS });
    // A greyscale image stays greyscale (sRGB's own greys): widened to three equal channels it
    // took three times the bytes and encoding time (a 200 kB scanned slip: 525 kB, 10.6 ms;
    // kept grey: 205 kB, 4.1 ms). One with a colour profile is converted as any other.
    if (metadata.space === "b-w" && !metadata.hasProfile) pipeline = pipeline.toColourspace("b-w");
  } catch (error) {
    throw asUndecodable(error);
  }

  // No keepMetadata/withMetadata/keepIccProfile: sharp's default output strips all metadata and
  // converts to sRGB, which is exactly what is wanted.
  switch (type) {
    case "image/jpeg":
      pipeline = pipeline.jpeg({ quality: 85, mozjpeg: false });
      break;
    case "image/png":
      pipeline = pipeline.png();
      break;
    case "image/webp":
      pipeline = pipeline.webp({ quality: 85 });
      break;
    case "image/gif":
      pipeline = pipeline.gif();
      break;
  }

  try {
    return await pipeline.toBuffer();
  } catch (error) {
    throw asUndecodable(error);
  }
}

function asUndecodable(error: unknown): UndecodableImageError {
  if (error instanceof UndecodableImageError) return error;
  // sharp reports everything as a plain Error; only the pixel limit gets its own reason.
  const reason = error instanceof Error && /pixel limit/i.test(error.message) ? "too_many_pixels" : "undecodable";
  return new UndecodableImageError(reason, { cause: error });
}
