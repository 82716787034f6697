import exifr from "exifr";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { IMAGE_MAX_SIDE, MAX_DECODED_PIXELS, reencodeImage, UndecodableImageError } from "@/server/storage/reencode-image";
import { IMAGE_REENCODE_MESSAGES } from "@/server/storage/upload-messages";
import { makePng } from "../helpers/images";

/** Everything a phone camera writes about where, when and with what: the things that must go. */
const CAMERA_EXIF = {
  IFD0: { Make: "Samsung", Model: "Galaxy S23", Artist: "Thandi Nkosi", Copyright: "Thandi Nkosi" },
  IFD3: { GPSLatitudeRef: "S", GPSLatitude: "33/1 55/1 1234/100", GPSLongitudeRef: "E", GPSLongitude: "18/1 25/1 3456/100" },
};
const XMP =
  '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">' +
  '<rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:creator><rdf:Seq><rdf:li>Thandi Nkosi</rdf:li></rdf:Seq></dc:creator>' +
  "</rdf:Description></rdf:RDF></x:xmpmeta>";

/** An image whose left half is red and right half blue, so a rotation shows in the pixels. */
function halves(width: number, height: number) {
  const raw = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) raw.set(x < width / 2 ? [220, 20, 20] : [20, 20, 220], (y * width + x) * 3);
  }
  return sharp(raw, { raw: { width, height, channels: 3 } });
}

/** An IPTC block (by-line "Thandi Nkosi") in a Photoshop APP13 segment, which sharp cannot write itself. */
function withIptc(jpeg: Buffer): Buffer {
  const byline = Buffer.from("Thandi Nkosi");
  const iptc = Buffer.concat([Buffer.from([0x1c, 0x02, 0x50, 0x00, byline.length]), byline]);
  const resource = Buffer.concat([Buffer.from("8BIM"), Buffer.from([0x04, 0x04, 0x00, 0x00]), Buffer.alloc(4), iptc, Buffer.alloc(iptc.length % 2)]);
  resource.writeUInt32BE(iptc.length, 8);
  const payload = Buffer.concat([Buffer.from("Photoshop 3.0\0"), resource]);
  const segment = Buffer.concat([Buffer.from([0xff, 0xed, 0, 0]), payload]);
  segment.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([jpeg.subarray(0, 2), segment, jpeg.subarray(2)]);
}

/** A 40x20 phone photo: EXIF with GPS, camera and orientation 6 (rotate 90° clockwise to view), XMP, IPTC, a P3 ICC profile. */
async function phonePhoto(): Promise<Buffer> {
  const jpeg = await halves(40, 20).jpeg().withMetadata({ orientation: 6 }).withExifMerge(CAMERA_EXIF).withXmp(XMP).withIccProfile("p3").toBuffer();
  return withIptc(jpeg);
}

const pixel = async (image: Uint8Array, x: number, y: number) => {
  const { data, info } = await sharp(image).raw().toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * info.channels;
  return [data[at]!, data[at + 1]!, data[at + 2]!];
};

/** The chunk types of a PNG, in order. */
function pngChunks(png: Uint8Array): string[] {
  const view = Buffer.from(png);
  const types: string[] = [];
  for (let at = 8; at + 8 <= view.length; at += 12 + view.readUInt32BE(at)) types.push(view.toString("latin1", at + 4, at + 8));
  return types;
}

/** The chunk types inside a WebP's RIFF container. */
function webpChunks(webp: Uint8Array): string[] {
  const view = Buffer.from(webp);
  const types: string[] = [];
  for (let at = 12; at + 8 <= view.length; at += 8 + view.readUInt32LE(at + 4) + (view.readUInt32LE(at + 4) % 2)) {
    types.push(view.toString("latin1", at, at + 4));
  }
  return types;
}

const magic = (bytes: Uint8Array, length: number) => Buffer.from(bytes.subarray(0, length)).toString("latin1");

/** An animated GIF: `frames` frames of width x height, each a flat colour, with per-frame delays. */
async function animatedGif(width: number, height: number, frames: number, comment?: string): Promise<Buffer> {
  const raw = Buffer.concat(
    Array.from({ length: frames }, (_, i) => Buffer.alloc(width * height * 3, i % 2 ? 40 : 200)),
  );
  const gif = await sharp(raw, { raw: { width, height: height * frames, channels: 3, pageHeight: height } })
    .gif({ delay: Array.from({ length: frames }, (_, i) => 100 * (i + 1)), loop: 0 })
    .toBuffer();
  if (!comment) return gif;
  // A comment extension just before the trailer byte: where GIF metadata hides.
  const text = Buffer.from(comment);
  return Buffer.concat([gif.subarray(0, -1), Buffer.from([0x21, 0xfe, text.length]), text, Buffer.from([0x00, 0x3b])]);
}

/**
 * A GIF whose header declares `frames` frames of width x height, each with a token of LZW data:
 * cheap to write, but it claims more pixels than any upload should make the server decode.
 */
function frameBombGif(width: number, height: number, frames: number): Buffer {
  const screen = Buffer.alloc(7);
  screen.writeUInt16LE(width, 0);
  screen.writeUInt16LE(height, 2);
  screen[4] = 0x80; // a global colour table of two entries
  const frame = Buffer.alloc(10);
  frame[0] = 0x2c;
  frame.writeUInt16LE(width, 5);
  frame.writeUInt16LE(height, 7);
  const lzw = Buffer.from([0x02, 0x02, 0x44, 0x01, 0x00]);
  return Buffer.concat([
    Buffer.from("GIF89a"),
    screen,
    Buffer.from([0, 0, 0, 255, 255, 255]),
    ...Array.from({ length: frames }, () => Buffer.concat([frame, lzw])),
    Buffer.from([0x3b]),
  ]);
}

async function refusal(promise: Promise<unknown>): Promise<UndecodableImageError> {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(UndecodableImageError);
  return error as UndecodableImageError;
}

describe("reencodeImage: nothing but the picture is stored", () => {
  it("the fixture really carries GPS, camera, author, orientation, XMP, IPTC and ICC", async () => {
    const photo = await phonePhoto();
    const tags: Record<string, unknown> = await exifr.parse(photo, { tiff: true, gps: true, xmp: true, iptc: true, icc: true });
    expect(tags).toMatchObject({ Make: "Samsung", Model: "Galaxy S23", Artist: "Thandi Nkosi", GPSLatitudeRef: "S" });
    expect(tags.latitude).toBeCloseTo(-33.9201, 3);
    expect(tags.byline ?? tags.Byline ?? tags["By-line"]).toBeTruthy();
    expect(await exifr.orientation(photo)).toBe(6);
    const metadata = await sharp(photo).metadata();
    expect(metadata).toMatchObject({ width: 40, height: 20, orientation: 6, hasProfile: true });
    expect(metadata.exif && metadata.xmp && metadata.iptc).toBeTruthy();
  });

  it("strips EXIF (GPS, camera, author), XMP, IPTC and ICC from a JPEG and outputs sRGB", async () => {
    const out = await reencodeImage(await phonePhoto(), "image/jpeg", IMAGE_MAX_SIDE.product);
    expect(magic(out, 3)).toBe("\xff\xd8\xff");
    expect(await exifr.parse(out, { tiff: true, gps: true, xmp: true, iptc: true, icc: true, jfif: false })).toBeUndefined();
    await expect(exifr.gps(out)).resolves.toBeUndefined();
    const metadata = await sharp(out).metadata();
    expect(metadata.exif).toBeUndefined();
    expect(metadata.xmp).toBeUndefined();
    expect(metadata.iptc).toBeUndefined();
    expect(metadata.icc).toBeUndefined();
    expect(metadata.hasProfile).toBe(false);
    expect(metadata.space).toBe("srgb");
    const text = Buffer.from(out).toString("latin1");
    for (const trace of ["Samsung", "Galaxy", "Thandi", "Exif\0", "http://ns.adobe.com/xap", "Photoshop 3.0", "ICC_PROFILE"]) {
      expect(text).not.toContain(trace);
    }
  });

  it("applies EXIF orientation 6 to the pixels: a 40x20 source comes back 20x40, left half on top", async () => {
    const out = await reencodeImage(await phonePhoto(), "image/jpeg", IMAGE_MAX_SIDE.product);
    const metadata = await sharp(out).metadata();
    expect([metadata.width, metadata.height]).toEqual([20, 40]);
    expect(metadata.orientation).toBeUndefined();
    // Orientation 6: the stored left edge is the top when viewed.
    const [topRed, , topBlue] = await pixel(out, 10, 5);
    const [bottomRed, , bottomBlue] = await pixel(out, 10, 35);
    expect(topRed).toBeGreaterThan(150);
    expect(topBlue).toBeLessThan(100);
    expect(bottomBlue).toBeGreaterThan(150);
    expect(bottomRed).toBeLessThan(100);
  });

  it("caps the longest side: 4000x1000 comes back 2000x500 for a product image", async () => {
    const wide = await sharp({ create: { width: 4000, height: 1000, channels: 3, background: "#336699" } }).jpeg().toBuffer();
    const out = await reencodeImage(wide, "image/jpeg", IMAGE_MAX_SIDE.product);
    expect(await sharp(out).metadata()).toMatchObject({ width: 2000, height: 500, format: "jpeg" });
  });

  it("caps tall images by their height, and uses each cap", async () => {
    const tall = await sharp({ create: { width: 1000, height: 4000, channels: 3, background: "#000" } }).png().toBuffer();
    expect(await sharp(await reencodeImage(tall, "image/png", IMAGE_MAX_SIDE.proof)).metadata()).toMatchObject({ width: 750, height: 3000 });
    const square = await sharp({ create: { width: 1200, height: 1200, channels: 3, background: "#fff" } }).webp().toBuffer();
    expect(await sharp(await reencodeImage(square, "image/webp", IMAGE_MAX_SIDE.avatar)).metadata()).toMatchObject({ width: 512, height: 512 });
  });

  it("never enlarges a small image", async () => {
    const small = await sharp({ create: { width: 300, height: 200, channels: 3, background: "#abcdef" } }).jpeg().toBuffer();
    expect(await sharp(await reencodeImage(small, "image/jpeg", IMAGE_MAX_SIDE.product)).metadata()).toMatchObject({ width: 300, height: 200 });
  });

  it("exports the caps: products 2000, profile pictures 512, proofs and logos 3000", () => {
    expect(IMAGE_MAX_SIDE).toEqual({ product: 2000, avatar: 512, proof: 3000, logo: 3000 });
  });
});

describe("reencodeImage: the format stays the same", () => {
  it("PNG in, PNG out, without eXIf, text or ICC chunks", async () => {
    const png = await halves(64, 32).png().withExif(CAMERA_EXIF).withIccProfile("p3").toBuffer();
    expect(pngChunks(png)).toEqual(expect.arrayContaining(["eXIf", "iCCP"]));
    const out = await reencodeImage(png, "image/png", IMAGE_MAX_SIDE.product);
    expect(magic(out, 8)).toBe("\x89PNG\r\n\x1a\n");
    const chunks = pngChunks(out);
    for (const chunk of ["eXIf", "iCCP", "tEXt", "iTXt", "zTXt", "tIME"]) expect(chunks).not.toContain(chunk);
    expect(chunks.at(-1)).toBe("IEND");
    expect(await exifr.parse(out, { tiff: true, gps: true, xmp: true, icc: true, ihdr: false })).toBeUndefined();
  });

  it("a greyscale PNG stays greyscale (a third of the bytes of three equal channels), with its pixels", async () => {
    const grey = await sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 90, g: 90, b: 90 } } }).toColourspace("b-w").png().toBuffer();
    const out = await reencodeImage(grey, "image/png", IMAGE_MAX_SIDE.proof);
    const meta = await sharp(out).metadata();
    expect([meta.format, meta.channels, meta.space, meta.width, meta.height]).toEqual(["png", 1, "b-w", 40, 30]);
    const { data } = await sharp(out).raw().toBuffer({ resolveWithObject: true });
    expect(new Set(data)).toEqual(new Set([90]));
  });

  it("PNG with text chunks (tEXt with a GPS note) loses them", async () => {
    const { chunk } = await import("../helpers/images");
    const note = chunk("tEXt", Buffer.from("Comment\0taken at -33.92, 18.42 by Thandi"));
    const out = await reencodeImage(makePng(16, 16, 100, [note]), "image/png", IMAGE_MAX_SIDE.avatar);
    expect(pngChunks(out)).not.toContain("tEXt");
    expect(Buffer.from(out).toString("latin1")).not.toContain("Thandi");
  });

  it("WebP in, WebP out, without EXIF, XMP or ICC chunks", async () => {
    const webp = await halves(64, 32).webp().withExif(CAMERA_EXIF).withXmp(XMP).withIccProfile("p3").toBuffer();
    expect(webpChunks(webp)).toEqual(expect.arrayContaining(["EXIF", "XMP ", "ICCP"]));
    const out = await reencodeImage(webp, "image/webp", IMAGE_MAX_SIDE.product);
    expect(magic(out, 4)).toBe("RIFF");
    expect(magic(out.subarray(8), 4)).toBe("WEBP");
    for (const chunk of ["EXIF", "XMP ", "ICCP"]) expect(webpChunks(out)).not.toContain(chunk);
  });

  it("GIF in, GIF out; an animated GIF keeps its frames, delays and loop, each frame scaled", async () => {
    const gif = await animatedGif(60, 40, 3, "shot by Thandi at -33.92 18.42");
    const out = await reencodeImage(gif, "image/gif", 30);
    expect(magic(out, 6)).toMatch(/^GIF8[79]a$/);
    const metadata = await sharp(out, { animated: true }).metadata();
    expect(metadata).toMatchObject({ format: "gif", pages: 3, width: 30, pageHeight: 20, loop: 0 });
    expect(metadata.delay).toEqual([100, 200, 300]);
    expect(Buffer.from(out).toString("latin1")).not.toContain("Thandi");
  });

  it("a still GIF stays a still GIF", async () => {
    const gif = await sharp({ create: { width: 10, height: 10, channels: 3, background: "#f00" } }).gif().toBuffer();
    const out = await reencodeImage(gif, "image/gif", IMAGE_MAX_SIDE.avatar);
    expect(await sharp(out, { animated: true }).metadata()).toMatchObject({ format: "gif", width: 10, height: 10, pages: 1 });
  });
});

describe("reencodeImage: refuses what it cannot decode", () => {
  it("random bytes throw UndecodableImageError", async () => {
    const random = Buffer.from(Array.from({ length: 2048 }, (_, i) => (i * 7919 + 13) % 251));
    const error = await refusal(reencodeImage(random, "image/jpeg", IMAGE_MAX_SIDE.product));
    expect(error.reason).toBe("undecodable");
    expect(error.name).toBe("UndecodableImageError");
    expect(IMAGE_REENCODE_MESSAGES[error.reason]).toMatch(/couldn't read this image/);
  });

  it("a truncated JPEG throws UndecodableImageError", async () => {
    const photo = await sharp({ create: { width: 200, height: 200, channels: 3, background: "#123456" } }).jpeg().toBuffer();
    expect((await refusal(reencodeImage(photo.subarray(0, photo.length / 2), "image/jpeg", 2000))).reason).toBe("undecodable");
  });

  it("an empty file throws UndecodableImageError", async () => {
    expect((await refusal(reencodeImage(new Uint8Array(0), "image/png", 2000))).reason).toBe("undecodable");
  });

  it("decodes only the claimed type: PNG bytes claimed as JPEG, or an SVG claimed as PNG, are refused", async () => {
    await refusal(reencodeImage(makePng(8, 8), "image/jpeg", 2000));
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>');
    expect((await refusal(reencodeImage(svg, "image/png", 2000))).reason).toBe("undecodable");
  });

  it("a decompression bomb (a small PNG of over 50 megapixels) is refused before decoding", async () => {
    const bomb = makePng(10_000, 6_000, 0);
    expect(bomb.length).toBeLessThan(200_000);
    const error = await refusal(reencodeImage(bomb, "image/png", 2000));
    expect(error.reason).toBe("too_many_pixels");
    expect(IMAGE_REENCODE_MESSAGES.too_many_pixels).toMatch(/too large/);
  });

  it("an animated GIF counts the pixels of all its frames", async () => {
    const bomb = frameBombGif(1000, 1000, Math.ceil(MAX_DECODED_PIXELS / 1_000_000) + 1);
    expect(bomb.length).toBeLessThan(2_000);
    expect((await refusal(reencodeImage(bomb, "image/gif", 2000))).reason).toBe("too_many_pixels");
  });

  it("rejects a nonsensical cap as a programming error, not as the customer's fault", async () => {
    await expect(reencodeImage(makePng(), "image/png", 0)).rejects.toThrow(RangeError);
    await expect(reencodeImage(makePng(), "image/png", 1.5)).rejects.toThrow(RangeError);
  });
});
