import { randomBytes } from "node:crypto";
import zlib from "node:zlib";

export function chunk(type: string, data: Buffer) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A greyscale PNG from its filtered scanlines (`width + 1` bytes per row, filter byte first). */
function greyscalePng(width: number, height: number, raw: Buffer, extraChunks: Buffer[] = [], level?: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 0; // greyscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", zlib.deflateSync(raw, level === undefined ? {} : { level })),
    ...extraChunks,
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** A real, decodable greyscale PNG of the given size (zeros compress well, so large sizes stay small). */
export function makePng(width = 4, height = 4, fill = 128, extraChunks: Buffer[] = []): Buffer {
  const row = Buffer.alloc(width + 1, fill);
  row[0] = 0; // filter: none
  const raw = Buffer.alloc(row.length * height);
  for (let y = 0; y < height; y++) row.copy(raw, y * row.length);
  return greyscalePng(width, height, raw, extraChunks);
}

/** A real, decodable PNG of about `bytes` that does not compress: random pixels, stored as they are. */
export function makeNoisyPng(bytes: number, width = 500): Buffer {
  const height = Math.ceil(bytes / (width + 1));
  const raw = randomBytes((width + 1) * height);
  for (let y = 0; y < height; y++) raw[y * (width + 1)] = 0; // filter: none
  return greyscalePng(width, height, raw, [], 0);
}

/** A real 8x8 JPEG (what sharp writes for a plain colour), small enough to keep inline. */
const TINY_JPEG =
  "/9j/2wBDAAYEBQYFBAYGBQYHBwYIChAKCgkJChQODwwQFxQYGBcUFhYaHSUfGhsjHBYWICwgIyYnKSopGR8tMC0oMCUoKSj/2wBDAQcHBwoIChMKChMoGhYaKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCj/wAARCAAIAAgDASIAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAT/xAAUEAEAAAAAAAAAAAAAAAAAAAAA/8QAFAEBAAAAAAAAAAAAAAAAAAAABv/EABQRAQAAAAAAAAAAAAAAAAAAAAD/2gAMAwEAAhEDEQA/AKQAI2f/2Q==";

/** A JPEG that decodes (uploads are re-encoded, so a JPEG-shaped stand-in no longer passes). */
export function makeJpeg(): Buffer {
  return Buffer.from(TINY_JPEG, "base64");
}

export function fileOf(bytes: Buffer | string, name: string, type = "image/png"): File {
  return new File([typeof bytes === "string" ? bytes : new Uint8Array(bytes)], name, { type });
}
