import PDFDocument from "pdfkit";
import fs from "node:fs";
import path from "node:path";
import { getDocument, VerbosityLevel } from "pdfjs-dist/legacy/build/pdf.mjs";
import { describe, expect, it } from "vitest";
import { drawableText, renderInvoicePdf } from "@/server/invoices/invoice-pdf";
import type { InvoiceSnapshot } from "@/server/invoices/snapshot";

/** The PDF's text as a reader sees it. */
async function pdfText(pdf: Uint8Array): Promise<string> {
  const task = getDocument({ data: new Uint8Array(pdf), verbosity: VerbosityLevel.ERRORS, useWasm: false, useSystemFonts: false });
  const doc = await task.promise;
  const pages: string[] = [];
  for (let n = 1; n <= doc.numPages; n++) {
    const content = await (await doc.getPage(n)).getTextContent();
    pages.push(content.items.map((item) => ("str" in item ? item.str : "")).join(" "));
  }
  await task.destroy();
  return pages.join("\n").replace(/\s+/g, " ");
}

/** Inter Regular as pdfkit embeds it: fontkit's glyph lookup. */
function interGlyphs(): { hasGlyphForCodePoint(codePoint: number): boolean } {
  const file = path.join(process.cwd(), "node_modules", "@expo-google-fonts", "inter", "400Regular", "Inter_400Regular.ttf");
  const doc = new PDFDocument({ font: fs.readFileSync(file) as unknown as string });
  return (doc as unknown as { _font: { font: { hasGlyphForCodePoint(codePoint: number): boolean } } })._font.font;
}

const snapshot: InvoiceSnapshot = {
  version: 1,
  document: "invoice",
  full: false,
  number: "INV-000001",
  issuedAt: "2026-12-01T10:00:00Z",
  orderReference: "ORD-123456",
  orderDate: "2026-12-01T09:00:00Z",
  seller: { name: "Our World Services", address: "1 Main Road\nJohannesburg", vatNumber: null },
  buyer: { name: "Lerato Dlamini 🙂", email: "lerato@example.test", company: "", address: "", vatNumber: "" },
  vatRate: null,
  lines: [{ description: "Party pack 🎉 for twenty", quantity: 1, unitPrice: "450.00", amount: "450.00" }],
  total: "450.00",
  vat: "0.00",
  exclusive: "450.00",
};

describe("an invoice's text", () => {
  it("leaves out what Inter cannot draw (an emoji) and keeps the rest, Zoë's ë included", () => {
    const glyphs = interGlyphs();
    expect(glyphs.hasGlyphForCodePoint("🙂".codePointAt(0)!)).toBe(false);
    expect(drawableText("Lerato Dlamini 🙂", [glyphs])).toBe("Lerato Dlamini");
    expect(drawableText("Zoë  Ŵ ł", [glyphs])).toBe("Zoë  Ŵ ł");
    expect(drawableText("1 Main Road\nJohannesburg", [glyphs])).toBe("1 Main Road\nJohannesburg");
    expect(drawableText("Party pack 🎉 for twenty", [glyphs])).toBe("Party pack for twenty");
  });

  it("prints no box: every character in the PDF is one the font draws", async () => {
    const text = await pdfText(await renderInvoicePdf(snapshot, { copy: false }));
    expect(text).toContain("Lerato Dlamini");
    expect(text).toContain("Party pack for twenty");
    const glyphs = interGlyphs();
    const undrawable = [...text].filter((char) => char.trim() !== "" && !glyphs.hasGlyphForCodePoint(char.codePointAt(0)!));
    expect(undrawable).toEqual([]);
  });
});
