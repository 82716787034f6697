/**
 * Decides what an uploaded file is by its content, never its name or the browser's MIME type
 * (docs/architecture.md#files): JPEG, PNG, WebP or GIF, structurally whole, with nothing appended, at most
 * 5 MB and 40 megapixels. Anything else is refused with a message the uploader can act on.
 */
import { messages } from "@/lib/messages";
import { MAX_UPLOAD_BYTES } from "@/lib/upload-rules";

export { MAX_UPLOAD_BYTES };
export const MAX_UPLOAD_PIXELS = 40_000_000;

export type ImageType = "image/jpeg" | "image/png" | "image/webp" | "image/gif";

/** What the shop stores: images everywhere, and PDF for proofs of payment (banks' apps issue PDF). */
export type StoredFileType = ImageType | "application/pdf";

export const FILE_EXTENSIONS: Record<StoredFileType, string> = {
  "image/jpeg": "jpg",
  "image/png": "png",
  "image/webp": "webp",
  "image/gif": "gif",
  "application/pdf": "pdf",
};

export type ImageCheck =
  | { ok: true; type: ImageType; width: number; height: number }
  | { ok: false; reason: "empty" | "too_large" | "not_an_image" | "too_many_pixels" | "unsafe_content"; message: string };

/** Whether the bytes claim to be a PDF (its header); checkPdfProof decides whether it is one. */
export function looksLikePdf(bytes: Uint8Array): boolean {
  return bytes.length >= 5 && ascii(bytes, 0, 5) === "%PDF-";
}

/** The refusals' texts (shared with the browser's own check before sending, src/lib/upload-rules.ts). */
export const UPLOAD_MESSAGES = messages.upload;

function refuse(reason: Exclude<ImageCheck, { ok: true }>["reason"]): ImageCheck {
  return { ok: false, reason, message: UPLOAD_MESSAGES[reason] };
}

const ascii = (bytes: Uint8Array, start: number, length: number) =>
  String.fromCharCode(...bytes.subarray(start, start + length));

/** Markup or script that has no business inside an image (polyglot files). */
export const MARKUP = /<\s*(script|html|svg|iframe|body|object|embed)\b|<\?php|javascript:/i;

/** The bytes of what `\s` matches in Latin-1 text: tab, line feed, vertical tab, form feed, carriage return, space, no-break space. */
const isSpace = (byte: number) => (byte >= 0x09 && byte <= 0x0d) || byte === 0x20 || byte === 0xa0;

/**
 * Whether MARKUP occurs in `bytes` read as Latin-1: the same answer as testing the whole file as
 * text, without making a string of it (that was most of an upload check's time: 1.0 of 1.3 ms
 * for a 200 kB proof). Every match starts at a '<' or ends at a ':', so only the text around
 * those is tested: from a '<' through its run of spaces and one tag name with the character
 * after it (for `\b`), where only a match starting at that '<' counts (a later one may be cut
 * short by the window; it gets its own turn); before a ':', the ten characters of "javascript",
 * where any match is whole.
 */
export function containsMarkup(bytes: Uint8Array): boolean {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const longestTag = "script".length;
  for (let at = text.indexOf(0x3c); at !== -1; at = text.indexOf(0x3c, at + 1)) {
    let name = at + 1;
    while (name < text.length && isSpace(text[name]!)) name++;
    if (MARKUP.exec(text.toString("latin1", at, name + longestTag + 1))?.index === 0) return true;
  }
  const scheme = "javascript".length;
  for (let colon = text.indexOf(0x3a, scheme); colon !== -1; colon = text.indexOf(0x3a, colon + 1)) {
    if (MARKUP.test(text.toString("latin1", colon - scheme, colon + 1))) return true;
  }
  return false;
}

export function checkImage(bytes: Uint8Array, maxBytes = MAX_UPLOAD_BYTES): ImageCheck {
  if (bytes.length === 0) return refuse("empty");
  if (bytes.length > maxBytes) return refuse("too_large");
  const parsed = parsePng(bytes) ?? parseJpeg(bytes) ?? parseGif(bytes) ?? parseWebp(bytes);
  if (!parsed) return refuse("not_an_image");
  if ("trailing" in parsed) return refuse("unsafe_content");
  if (parsed.width < 1 || parsed.height < 1) return refuse("not_an_image");
  if (parsed.width * parsed.height > MAX_UPLOAD_PIXELS) return refuse("too_many_pixels");
  if (containsMarkup(bytes)) return refuse("unsafe_content");
  return { ok: true, ...parsed };
}

type Parsed = { type: ImageType; width: number; height: number } | { trailing: true } | undefined;

function parsePng(b: Uint8Array): Parsed {
  const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (b.length < 33 || !signature.every((byte, i) => b[i] === byte)) return undefined;
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  if (ascii(b, 12, 4) !== "IHDR") return undefined;
  const width = view.getUint32(16);
  const height = view.getUint32(20);
  // Walk the chunks to IEND: the file must end there.
  let offset = 8;
  while (offset + 12 <= b.length) {
    const length = view.getUint32(offset);
    const type = ascii(b, offset + 4, 4);
    offset += 12 + length;
    if (offset > b.length) return undefined;
    if (type === "IEND") return offset === b.length ? { type: "image/png", width, height } : { trailing: true };
  }
  return undefined;
}

function parseJpeg(b: Uint8Array): Parsed {
  if (b.length < 4 || b[0] !== 0xff || b[1] !== 0xd8 || b[2] !== 0xff) return undefined;
  let offset = 2;
  let size: { width: number; height: number } | undefined;
  while (offset + 4 <= b.length) {
    if (b[offset] !== 0xff) return undefined;
    const marker = b[offset + 1]!;
    if (marker === 0xff) {
      offset += 1;
      continue;
    }
    if (marker === 0xd9) break;
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      offset += 2;
      continue;
    }
    const length = (b[offset + 2]! << 8) | b[offset + 3]!;
    if (length < 2) return undefined;
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame && offset + 9 <= b.length) {
      size = { height: (b[offset + 5]! << 8) | b[offset + 6]!, width: (b[offset + 7]! << 8) | b[offset + 8]! };
    }
    if (marker === 0xda) {
      // Entropy-coded data follows the scan header: find the end-of-image marker.
      let end = b.length - 2;
      while (end > offset && !(b[end] === 0xff && b[end + 1] === 0xd9)) end--;
      if (end <= offset || !size) return undefined;
      return end + 2 === b.length ? { type: "image/jpeg", ...size } : { trailing: true };
    }
    offset += 2 + length;
  }
  return undefined;
}

function parseGif(b: Uint8Array): Parsed {
  const header = ascii(b, 0, 6);
  if (b.length < 14 || (header !== "GIF87a" && header !== "GIF89a")) return undefined;
  const width = b[6]! | (b[7]! << 8);
  const height = b[8]! | (b[9]! << 8);
  return b[b.length - 1] === 0x3b ? { type: "image/gif", width, height } : { trailing: true };
}

function parseWebp(b: Uint8Array): Parsed {
  if (b.length < 30 || ascii(b, 0, 4) !== "RIFF" || ascii(b, 8, 4) !== "WEBP") return undefined;
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const riffSize = view.getUint32(4, true);
  if (riffSize + 8 !== b.length) return riffSize + 8 < b.length ? { trailing: true } : undefined;
  const chunk = ascii(b, 12, 4);
  if (chunk === "VP8X") {
    const width = 1 + (b[24]! | (b[25]! << 8) | (b[26]! << 16));
    const height = 1 + (b[27]! | (b[28]! << 8) | (b[29]! << 16));
    return { type: "image/webp", width, height };
  }
  if (chunk === "VP8L") {
    const bits = view.getUint32(21, true);
    return { type: "image/webp", width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
  }
  if (chunk === "VP8 ") {
    return { type: "image/webp", width: view.getUint16(26, true) & 0x3fff, height: view.getUint16(28, true) & 0x3fff };
  }
  return undefined;
}

/**
 * A file name safe to store and show: letters, digits, dot, dash and underscore only, no path,
 * at most 80 characters, ending in the extension of the detected type.
 */
export function sanitiseFileName(name: string, type: StoredFileType): string {
  const base = name.split(/[\\/]/).pop() ?? "";
  const stem = base
    .replace(/\.[^.]*$/, "")
    .normalize("NFKD")
    .replace(/[^a-zA-Z0-9._-]+/g, "-")
    .replace(/\.{2,}/g, ".")
    .replace(/^[-.]+|[-.]+$/g, "")
    .slice(0, 70);
  return `${stem || (type === "application/pdf" ? "proof" : "image")}.${FILE_EXTENSIONS[type]}`;
}
