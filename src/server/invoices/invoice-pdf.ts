import fs from "node:fs";
import path from "node:path";
import PDFDocument from "pdfkit";
import { SHOP_TIME_ZONE } from "@/lib/days";
import { formatRand2 } from "@/lib/money";
import { DEMO_VALUES, isDemoValue } from "@/server/settings/demo-values";
import type { InvoiceSnapshot } from "./snapshot";

/**
 * The fonts every invoice is drawn in, shipped with the app (the Inter TTFs of
 * @expo-google-fonts/inter, read from disk: nothing is fetched at run time). TTFs rather than
 * PDF's standard fonts so any name a customer types (Zoë, Ŵ, ł) prints, embedded as subsets.
 */
const FONT_DIR = path.join(process.cwd(), "node_modules", "@expo-google-fonts", "inter");
let fonts: { regular: Buffer; bold: Buffer } | undefined;
/** The invoice fonts' bytes (read once); quotes are drawn in them too. */
export function loadFonts() {
  fonts ??= {
    regular: fs.readFileSync(path.join(FONT_DIR, "400Regular", "Inter_400Regular.ttf")),
    bold: fs.readFileSync(path.join(FONT_DIR, "700Bold", "Inter_700Bold.ttf")),
  };
  return fonts;
}

const dateFormat = new Intl.DateTimeFormat("en-ZA", { day: "numeric", month: "long", year: "numeric", timeZone: SHOP_TIME_ZONE });

/** "29 November 2026", the day in South African time. */
export function invoiceDate(iso: string): string {
  return dateFormat.format(new Date(iso));
}

/** The document's title as SARS names it. */
export function documentTitle(snapshot: InvoiceSnapshot): string {
  if (snapshot.document === "credit_note") return snapshot.vatRate === null ? "Credit Note" : "Tax Credit Note";
  return snapshot.document === "tax_invoice" ? "Tax Invoice" : "Invoice";
}

/** fontkit's glyph lookup of a font pdfkit has loaded. */
export interface GlyphLookup {
  hasGlyphForCodePoint(codePoint: number): boolean;
}

/** The glyph lookup of the font `name` registered on `doc` (pdfkit keeps its fontkit font as `_font.font`). */
export function glyphsOf(doc: PDFKit.PDFDocument, name: string): GlyphLookup {
  doc.font(name);
  return (doc as unknown as { _font: { font: GlyphLookup } })._font.font;
}

/**
 * `text` without the characters one of `fonts` cannot draw (an emoji in a name: Inter has none),
 * which would print as a box; line breaks and tabs stay. Where something was left out, the
 * spaces it leaves are tidied ("Lerato Dlamini 🙂" prints "Lerato Dlamini").
 */
export function drawableText(text: string, fonts: GlyphLookup[]): string {
  let kept = "";
  for (const char of text) {
    const codePoint = char.codePointAt(0)!;
    if (codePoint < 0x20 || fonts.every((font) => font.hasGlyphForCodePoint(codePoint))) kept += char;
  }
  if (kept.length === text.length) return text;
  return kept
    .split("\n")
    .map((line) => line.replace(/ {2,}/g, " ").trim())
    .join("\n");
}

/** Every text of the snapshot as `drawableText` leaves it. */
export function drawableSnapshot<T>(value: T, fonts: GlyphLookup[]): T {
  if (typeof value === "string") return drawableText(value, fonts) as T;
  if (Array.isArray(value)) return value.map((each: unknown) => drawableSnapshot(each, fonts)) as T;
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([key, each]) => [key, drawableSnapshot(each, fonts)])) as T;
  return value;
}

/** The documents' colours (invoices, credit notes, quotes). */
export const INK = "#1f2933";
export const MUTED = "#52606d";
export const BRAND = "#0e4b46";

/** A column of a document's table of lines. */
export interface TableColumn {
  label: string;
  width: number;
  align: "left" | "right";
}

/**
 * One row of a document's table of lines (invoices, credit notes, quotes) at the current line:
 * each cell wrapped in its column, the row as tall as its tallest cell, on a new page when it
 * would run into the footer.
 */
export function drawTableRow(doc: PDFKit.PDFDocument, columns: TableColumn[], left: number, cells: string[], font: "regular" | "bold"): void {
  doc.font(font).fontSize(10).fillColor(INK);
  const height = Math.max(...cells.map((cell, i) => doc.heightOfString(cell, { width: columns[i]!.width - 6 })));
  if (doc.y + height > doc.page.height - doc.page.margins.bottom - 40) doc.addPage();
  const y = doc.y;
  let x = left;
  cells.forEach((cell, i) => {
    doc.text(cell, x, y, { width: columns[i]!.width - 6, align: columns[i]!.align });
    x += columns[i]!.width;
  });
  doc.x = left;
  doc.y = y + height + 6;
}

/**
 * Draws an invoice or credit note as a PDF (A4) from its snapshot alone. `copy`: a second or
 * later download, marked "Copy" so it is never taken for a second original. `production`: a
 * seller address that is still the demo shop's (issued before the owner set theirs) is left out
 * rather than printed as the business's own (issue 34; the go-live checklist names it).
 */
export function renderInvoicePdf(snapshot: InvoiceSnapshot, options: { copy: boolean; production?: boolean }): Promise<Buffer> {
  const { regular, bold } = loadFonts();
  const title = documentTitle(snapshot);
  const doc = new PDFDocument({
    size: "A4",
    margin: 50,
    // The first font as bytes, so pdfkit never loads its standard Helvetica (@types/pdfkit says string; pdfkit takes either).
    font: regular as unknown as string,
    lang: "en-ZA",
    info: { Title: `${title} ${snapshot.number}`, Author: snapshot.seller.name, Subject: `Order ${snapshot.orderReference}` },
  });
  doc.registerFont("regular", regular);
  doc.registerFont("bold", bold);
  // What the customer or the shop typed is printed as far as the fonts can draw it, never as boxes.
  snapshot = drawableSnapshot(snapshot, [glyphsOf(doc, "regular"), glyphsOf(doc, "bold")]);
  const chunks: Buffer[] = [];
  doc.on("data", (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });

  const left = doc.page.margins.left;
  const width = doc.page.width - doc.page.margins.left - doc.page.margins.right;
  const registered = snapshot.vatRate !== null;

  // Heading: the title, and "Copy" beside it on every download after the first.
  doc.font("bold").fontSize(22).fillColor(BRAND).text(title, left, 50);
  if (options.copy) {
    doc.font("bold").fontSize(22).fillColor("#b42318").text("Copy", left, 50, { width, align: "right" });
  }
  doc.moveDown(0.6);

  // Seller (left) and the document's number and date (right).
  const top = doc.y;
  doc.font("bold").fontSize(11).fillColor(INK).text(snapshot.seller.name, left, top, { width: width / 2 - 10 });
  doc.font("regular").fontSize(10).fillColor(INK);
  if (!(options.production && isDemoValue(snapshot.seller.address, DEMO_VALUES.address))) doc.text(snapshot.seller.address, { width: width / 2 - 10 });
  if (snapshot.seller.vatNumber) doc.text(`VAT number: ${snapshot.seller.vatNumber}`, { width: width / 2 - 10 });
  const sellerBottom = doc.y;

  const right = left + width / 2 + 10;
  const numberLabel = snapshot.document === "credit_note" ? "Credit note number" : "Invoice number";
  doc.font("regular").fontSize(10).fillColor(INK);
  doc.text(`${numberLabel}: ${snapshot.number}`, right, top, { width: width / 2 - 10 });
  doc.text(`Date: ${invoiceDate(snapshot.issuedAt)}`, { width: width / 2 - 10 });
  doc.text(`Order: ${snapshot.orderReference} (${invoiceDate(snapshot.orderDate)})`, { width: width / 2 - 10 });
  if (snapshot.quoteNumber) doc.text(`Quote: ${snapshot.quoteNumber}`, { width: width / 2 - 10 });
  if (snapshot.purchaseOrder) doc.text(`Your purchase order: ${snapshot.purchaseOrder}`, { width: width / 2 - 10 });
  if (snapshot.credits) {
    doc.text(`Credits invoice ${snapshot.credits.number} of ${invoiceDate(snapshot.credits.issuedAt)}`, { width: width / 2 - 10 });
  }
  // Each payment of a booking is its own time of supply: the deposit, then the balance.
  if (snapshot.part === "deposit") doc.text("For the deposit received", { width: width / 2 - 10 });
  if (snapshot.part === "balance") {
    doc.text(
      snapshot.depositInvoice
        ? `For the balance received; deposit invoiced on ${snapshot.depositInvoice.number} of ${invoiceDate(snapshot.depositInvoice.issuedAt)}`
        : "For the balance received",
      { width: width / 2 - 10 },
    );
  }
  doc.y = Math.max(sellerBottom, doc.y) + 16;

  // The buyer: on a full tax invoice (above R5,000) everything SARS asks for; otherwise the name.
  doc.font("bold").fontSize(10).fillColor(MUTED).text(snapshot.document === "credit_note" ? "Credited to" : "Bill to", left);
  doc.font("regular").fontSize(10).fillColor(INK);
  const buyer = snapshot.buyer;
  if (buyer.company) doc.text(buyer.company);
  doc.text(buyer.company ? `Attention: ${buyer.name}` : buyer.name);
  if (snapshot.full || !registered || buyer.address) {
    if (buyer.address) doc.text(buyer.address);
    if (buyer.vatNumber) doc.text(`VAT number: ${buyer.vatNumber}`);
  }
  doc.text(buyer.email);
  doc.moveDown(1.2);

  // The lines.
  const columns = registered
    ? [
        { label: "Description", width: width - 310, align: "left" as const },
        { label: "Qty", width: 40, align: "right" as const },
        { label: "Unit price", width: 85, align: "right" as const },
        { label: "Amount", width: 95, align: "right" as const },
        { label: "VAT", width: 90, align: "right" as const },
      ]
    : [
        { label: "Description", width: width - 220, align: "left" as const },
        { label: "Qty", width: 40, align: "right" as const },
        { label: "Unit price", width: 85, align: "right" as const },
        { label: "Amount", width: 95, align: "right" as const },
      ];
  const row = (cells: string[], font: "regular" | "bold") => drawTableRow(doc, columns, left, cells, font);
  row(
    columns.map((c) => c.label),
    "bold",
  );
  doc.moveTo(left, doc.y - 3).lineTo(left + width, doc.y - 3).strokeColor("#cbd2d9").stroke();
  for (const line of snapshot.lines) {
    const cells = [line.description, String(line.quantity), formatRand2(line.unitPrice), formatRand2(line.amount)];
    if (registered) cells.push(formatRand2(line.vat ?? "0.00"));
    row(cells, "regular");
  }
  doc.moveTo(left, doc.y).lineTo(left + width, doc.y).strokeColor("#cbd2d9").stroke();
  doc.moveDown(0.8);

  // Totals, right-aligned.
  const total = (label: string, value: string, font: "regular" | "bold" = "regular") => {
    const y = doc.y;
    doc.font(font).fontSize(11).fillColor(INK).text(label, left, y, { width: width - 110, align: "right" });
    doc.text(value, left + width - 105, y, { width: 105, align: "right" });
    doc.x = left;
  };
  if (registered) {
    total("Total excluding VAT", formatRand2(snapshot.exclusive));
    total(`VAT at ${snapshot.vatRate}%`, formatRand2(snapshot.vat));
    total("Total including VAT", formatRand2(snapshot.total), "bold");
  } else {
    total("Total", formatRand2(snapshot.total), "bold");
  }
  doc.moveDown(1.5);
  doc.font("regular").fontSize(9).fillColor(MUTED);
  if (snapshot.document === "credit_note") {
    const credited = snapshot.credits?.number ?? "";
    doc.text(
      snapshot.partial ? `This credit note credits the lines above of invoice ${credited}.` : `This credit note cancels invoice ${credited} in full.`,
      left,
      doc.y,
      { width },
    );
  }
  if (registered) doc.text(`Prices include VAT at ${snapshot.vatRate}%.`, left, doc.y, { width });
  else doc.text("The seller is not registered for VAT: no VAT is charged.", left, doc.y, { width });

  doc.end();
  return done;
}
