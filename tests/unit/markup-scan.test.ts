import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { containsMarkup, MARKUP } from "@/server/storage/image-check";

/** What the check answered before it looked only around '<' and ':': the regex over the whole file as Latin-1 text. */
const wholeFile = (bytes: Uint8Array) => MARKUP.test(Buffer.from(bytes).toString("latin1"));

const latin1 = (text: string) => [...Buffer.from(text, "latin1")];

// Pieces that make and break matches: the markers in mixed case, what `\s` matches and what it
// does not (NEL 0x85 is not a space), word characters after a tag name, and any byte at all.
const piece = fc.oneof(
  fc.constantFrom("<", ":", "?", "<?php", "<?PHP", "javascript", "JavaScript", "javascript:", "java script:"),
  fc.constantFrom("script", "SCRIPT", "html", "svg", "iframe", "body", "object", "embed", "scripts", "svg_", "body1"),
  fc.constantFrom(" ", "\t", "\n", "\v", "\f", "\r", "\u00a0", "\u0085", "   \t\u00a0 "),
  fc.integer({ min: 0, max: 255 }).map((byte) => String.fromCharCode(byte)),
);
const files = fc.array(piece, { maxLength: 40 }).map((pieces) => Uint8Array.from(latin1(pieces.join(""))));

describe("the markup scan of uploaded images", () => {
  it("answers as the regex over the whole file does, for any bytes", () => {
    fc.assert(
      fc.property(files, (bytes) => containsMarkup(bytes) === wholeFile(bytes)),
      { numRuns: 20_000 },
    );
  });

  it("finds markers at the very start and end, after long runs of spaces, and in a view into a larger buffer", () => {
    const cases = ["<script", "x<svg", "javascript:", "ab javascript:", `<${" ".repeat(5000)}iframe>`, `<${" ".repeat(5000)}iframes`, "<?php"];
    for (const text of cases) {
      const bytes = Uint8Array.from(latin1(text));
      expect(containsMarkup(bytes), text.slice(0, 20)).toBe(wholeFile(bytes));
    }
    // The bytes of a file are often a view into a bigger buffer: what lies outside it does not count.
    const backing = Buffer.from("<script>javascript: innocent bytes <svg>", "latin1");
    const view = backing.subarray(8, 18);
    expect(Buffer.from(view).toString("latin1")).toBe("javascript");
    expect(containsMarkup(view)).toBe(false);
    expect(containsMarkup(backing.subarray(8, 19))).toBe(true);
  });

  it("finds nothing in 200 kB of noise free of markers, and a marker hidden in it", () => {
    const noise = Buffer.alloc(200 * 1024);
    for (let i = 0; i < noise.length; i++) noise[i] = (i * 7919 + (i >> 3)) & 0xff;
    expect(containsMarkup(noise)).toBe(wholeFile(noise));
    const hidden = Buffer.concat([noise.subarray(0, 100_000), Buffer.from("<  ScRiPt>"), noise.subarray(100_000)]);
    expect(containsMarkup(hidden)).toBe(true);
  });
});
