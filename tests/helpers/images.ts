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

/** A minimal JPEG-shaped file (SOI, SOF0 with a size, SOS, data, EOI). */
export function makeJpeg(width = 8, height = 8): Buffer {
  return Buffer.from([
    0xff, 0xd8,
    0xff, 0xc0, 0x00, 0x0b, 0x08, height >> 8, height & 0xff, width >> 8, width & 0xff, 0x01, 0x01, 0x11, 0x00,
    0xff, 0xda, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3f, 0x00,
    0x12, 0x34, 0x56,
    0xff, 0xd9,
  ]);
}

export function fileOf(bytes: Buffer | string, name: string, type = "image/png"): File {
  return new File([typeof bytes === "string" ? bytes : new Uint8Array(bytes)], name, { type });
}
