/**
 * Draws the shop's icons from its mark (src/lib/brand-icon.ts) with sharp:
 *   src/app/favicon.ico      16, 32 and 48 px PNGs in one ICO (what browsers ask for unprompted)
 *   src/app/icon.svg         the mark itself (Next.js links it as the page's icon)
 *   src/app/apple-icon.png   180 px touch icon on the theme colour
 *   public/icons/*.png       the web app manifest's 192 and 512 px icons (the 512 px one also maskable:
 *                            the mark stays inside the middle 80 %)
 * Run again after changing the mark: `npx tsx scripts/make-icons.ts`. The outputs are committed.
 */
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { brandMarkSvg, brandTileSvg } from "../src/lib/brand-icon";

async function png(svg: string, size: number): Promise<Buffer> {
  return sharp(Buffer.from(svg), { density: 72 * Math.ceil(size / 32) })
    .resize(size, size)
    .png({ compressionLevel: 9 })
    .toBuffer();
}

/** An ICO holding PNG images (supported by every browser since Windows Vista's format change). */
export function ico(images: { size: number; data: Buffer }[]): Buffer {
  const header = Buffer.alloc(6);
  header.writeUInt16LE(0, 0); // reserved
  header.writeUInt16LE(1, 2); // type: icon
  header.writeUInt16LE(images.length, 4);
  const entries: Buffer[] = [];
  let offset = 6 + 16 * images.length;
  for (const { size, data } of images) {
    const entry = Buffer.alloc(16);
    entry.writeUInt8(size >= 256 ? 0 : size, 0);
    entry.writeUInt8(size >= 256 ? 0 : size, 1);
    entry.writeUInt8(0, 2); // no palette
    entry.writeUInt8(0, 3);
    entry.writeUInt16LE(1, 4); // colour planes
    entry.writeUInt16LE(32, 6); // bits per pixel
    entry.writeUInt32LE(data.length, 8);
    entry.writeUInt32LE(offset, 12);
    offset += data.length;
    entries.push(entry);
  }
  return Buffer.concat([header, ...entries, ...images.map((image) => image.data)]);
}

async function main() {
  const mark = brandMarkSvg();
  const tile = brandTileSvg();
  const favicon = ico(await Promise.all([16, 32, 48].map(async (size) => ({ size, data: await png(mark, size) }))));
  fs.writeFileSync(path.join("src/app/favicon.ico"), favicon);
  fs.writeFileSync(path.join("src/app/icon.svg"), `${mark}\n`);
  fs.writeFileSync(path.join("src/app/apple-icon.png"), await png(tile, 180));
  fs.mkdirSync("public/icons", { recursive: true });
  fs.writeFileSync("public/icons/icon-192.png", await png(tile, 192));
  fs.writeFileSync("public/icons/icon-512.png", await png(tile, 512));
  console.log("wrote src/app/favicon.ico, icon.svg, apple-icon.png and public/icons/");
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
