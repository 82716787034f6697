import PDFDocument from "pdfkit";
import { formatRand2 } from "@/lib/money";
import { BRAND, drawableSnapshot, drawTableRow, glyphsOf, INK, invoiceDate, loadFonts, MUTED } from "@/server/invoices/invoice-pdf";

/** What a quote's PDF prints: the version as sent (its lines are frozen), and who it is from and for. */
export interface QuotePrint {
  number: string;
  version: number;
  sentAt: string;
  validUntil: string;
  seller: { name: string; email: string; phone: string; address: string };
  buyer: { name: string; email: string; company: string; vatNumber: string };
  lines: { description: string; quantity: number; unitPrice: number }[];
  total: number;
  terms: string;
  note: string;
}

/** A quote as a PDF (A4), drawn as invoices are (the same fonts; what cannot be drawn is left out). */
export function renderQuotePdf(quote: QuotePrint): Promise<Buffer> {
  const { regular, bold } = loadFonts();
  const doc = new PDFDocument({
    size: "A4",
    margin: 50,
    font: regular as unknown as string,
    lang: "en-ZA",
    info: { Title: `Quote ${quote.number}`, Author: quote.seller.name },
  });
  doc.registerFont("regular", regular);
  doc.registerFont("bold", bold);
  quote = drawableSnapshot(quote, [glyphsOf(doc, "regular"), glyphsOf(doc, "bold")]);
  const chunks: Buffer[] = [];
  doc.on("data", (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
  const left = doc.page.margins.left;
  const width = doc.page.width - doc.page.margins.left - doc.page.margins.right;
  const half = width / 2 - 10;

  doc.font("bold").fontSize(22).fillColor(BRAND).text("Quote", left, 50);
  doc.moveDown(0.6);
  const top = doc.y;
  doc.font("bold").fontSize(11).fillColor(INK).text(quote.seller.name, left, top, { width: half });
  doc.font("regular").fontSize(10);
  for (const detail of [quote.seller.address, quote.seller.email, quote.seller.phone]) if (detail) doc.text(detail, { width: half });
  const sellerBottom = doc.y;
  const right = left + width / 2 + 10;
  doc.text(`Quote number: ${quote.number}${quote.version > 1 ? ` (version ${quote.version})` : ""}`, right, top, { width: half });
  doc.text(`Date: ${invoiceDate(quote.sentAt)}`, { width: half });
  doc.text(`Valid until: ${invoiceDate(`${quote.validUntil}T12:00:00+02:00`)}`, { width: half });
  doc.y = Math.max(sellerBottom, doc.y) + 16;

  doc.font("bold").fontSize(10).fillColor(MUTED).text("For", left);
  doc.font("regular").fontSize(10).fillColor(INK);
  if (quote.buyer.company) doc.text(quote.buyer.company);
  doc.text(quote.buyer.company ? `Attention: ${quote.buyer.name}` : quote.buyer.name);
  if (quote.buyer.vatNumber) doc.text(`VAT number: ${quote.buyer.vatNumber}`);
  doc.text(quote.buyer.email);
  doc.moveDown(1.2);

  const columns = [
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
  for (const line of quote.lines) row([line.description, String(line.quantity), formatRand2(line.unitPrice), formatRand2(line.unitPrice * line.quantity)], "regular");
  doc.moveTo(left, doc.y).lineTo(left + width, doc.y).strokeColor("#cbd2d9").stroke();
  doc.moveDown(0.8);
  const y = doc.y;
  doc.font("bold").fontSize(11).text("Total (VAT inclusive where charged)", left, y, { width: width - 110, align: "right" });
  doc.text(formatRand2(quote.total), left + width - 105, y, { width: 105, align: "right" });
  doc.x = left;
  doc.moveDown(1.5);
  for (const [title, text] of [
    ["Terms", quote.terms],
    ["Note", quote.note],
  ] as const) {
    if (!text) continue;
    doc.font("bold").fontSize(10).fillColor(MUTED).text(title, left);
    doc.font("regular").fontSize(10).fillColor(INK).text(text, { width });
    doc.moveDown(0.8);
  }
  doc.end();
  return done;
}
