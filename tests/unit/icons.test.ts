/**
 * The icons a browser asks for (favicon.ico, the touch icon) and the web app manifest's are real
 * images of the sizes they claim, and the manifest names the shop in its colours.
 */
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import manifest, { shortName } from "@/app/manifest";
import { BRAND_COLOURS } from "@/lib/brand-icon";
import { site } from "@/server/settings/site";

async function pngSize(bytes: Buffer): Promise<[number, number]> {
  const meta = await sharp(bytes).metadata();
  expect(meta.format).toBe("png");
  return [meta.width!, meta.height!];
}

describe("icons", () => {
  it("favicon.ico holds 16, 32 and 48 px PNG images", async () => {
    const ico = fs.readFileSync("src/app/favicon.ico");
    expect(ico.readUInt16LE(0)).toBe(0);
    expect(ico.readUInt16LE(2)).toBe(1);
    const count = ico.readUInt16LE(4);
    const sizes: number[] = [];
    for (let i = 0; i < count; i++) {
      const entry = 6 + 16 * i;
      const size = ico.readUInt8(entry);
      const length = ico.readUInt32LE(entry + 8);
      const offset = ico.readUInt32LE(entry + 12);
      expect(offset + length).toBeLessThanOrEqual(ico.length);
      expect(await pngSize(ico.subarray(offset, offset + length))).toEqual([size, size]);
      sizes.push(size);
    }
    expect(sizes).toEqual([16, 32, 48]);
  });

  it("the touch icon is 180 px, and the page icon is the mark", async () => {
    expect(await pngSize(fs.readFileSync("src/app/apple-icon.png"))).toEqual([180, 180]);
    expect(fs.readFileSync("src/app/icon.svg", "utf8")).toContain(BRAND_COLOURS.theme);
  });

  it("the manifest names the shop in its colours, with icons that exist at their sizes", async () => {
    const m = manifest();
    expect(m.name).toBe(site.name);
    expect(m.short_name!.length).toBeLessThanOrEqual(12);
    expect(m.theme_color).toBe(BRAND_COLOURS.theme);
    expect(m.background_color).toBe(BRAND_COLOURS.background);
    expect(m.start_url).toBe("/");
    expect(m.icons!.map((icon) => icon.purpose)).toEqual(expect.arrayContaining(["any", "maskable"]));
    for (const icon of m.icons!) {
      const [width] = icon.sizes!.split("x").map(Number);
      expect(await pngSize(fs.readFileSync(path.join("public", icon.src)))).toEqual([width, width]);
    }
    const globals = fs.readFileSync("src/app/globals.css", "utf8");
    expect(globals).toContain(`--color-surface: ${BRAND_COLOURS.background}`);
  });

  it("a long shop name is shortened at a word for the home screen", () => {
    expect(shortName("Our World Services")).toBe("Our World");
    expect(shortName("Pies")).toBe("Pies");
    expect(shortName("Supercalifragilistic Pies")).toBe("Supercalifra");
  });
});
