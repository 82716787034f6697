import { createHash } from "node:crypto";
import zlib from "node:zlib";
import { PDFDocument, StandardFonts } from "@cantoo/pdf-lib";
import { makePng } from "./images";

/**
 * Real, minimal PDFs written from scratch for the PDF-proof tests: every object at the offset its
 * cross-reference entry names, so pdf.js opens them without falling back to repairing the file.
 *
 * An object is either its body as PDF source (`<< /Type /Catalog ... >>`, `[1 2 3]`) or a stream:
 * the stream dictionary's entries without the `<< >>` (the builder adds `/Length`) and its data.
 * Literal strings in bodies must be plain `(text)` without nested parentheses or backslashes: the
 * encrypting builder finds and encrypts them by that shape.
 */
export type PdfObject = string | { dict: string; stream: Uint8Array | string; deflate?: boolean };

/** What `buildPdf` writes. */
export interface PdfBuildOptions {
  /** Objects by number; numbers must run from 1 without gaps. */
  objects: Record<number, PdfObject>;
  /** The catalog's object number. */
  root?: number;
  /** Extra trailer entries, e.g. `/Info 9 0 R`. */
  trailer?: string;
  /** Put these (non-stream) objects into one FlateDecode object stream, with an xref stream. */
  objectStream?: number[];
  /** Encrypt strings and streams with the standard security handler (RC4, 40-bit, revision 2). */
  encrypt?: { userPassword?: string; ownerPassword?: string };
  version?: string;
}

const latin1 = (text: string) => Buffer.from(text, "latin1");

function streamParts(object: Exclude<PdfObject, string>): { dict: string; data: Buffer } {
  let data = typeof object.stream === "string" ? latin1(object.stream) : Buffer.from(object.stream);
  let dict = object.dict;
  if (object.deflate) {
    data = zlib.deflateSync(data);
    dict = `${dict} /Filter /FlateDecode`;
  }
  return { dict, data };
}

function serialiseObject(num: number, object: PdfObject, encryptKey?: Buffer): Buffer {
  if (typeof object === "string") {
    const body = encryptKey ? encryptStrings(object, objectKey(encryptKey, num)) : object;
    return latin1(`${num} 0 obj\n${body}\nendobj\n`);
  }
  const { dict, data } = streamParts(object);
  const key = encryptKey && objectKey(encryptKey, num);
  const bytes = key ? rc4(key, data) : data;
  const entries = key ? encryptStrings(dict, key) : dict;
  return Buffer.concat([latin1(`${num} 0 obj\n<< ${entries} /Length ${bytes.length} >>\nstream\n`), bytes, latin1("\nendstream\nendobj\n")]);
}

/** Writes the objects, a cross-reference table (or stream) with exact offsets, and the trailer. */
export function buildPdf(options: PdfBuildOptions): Buffer {
  const { objects, root = 1, version = "1.7" } = options;
  const numbers = Object.keys(objects).map(Number).sort((a, b) => a - b);
  numbers.forEach((n, i) => {
    if (n !== i + 1) throw new Error(`object numbers must run from 1 without gaps (missing ${i + 1})`);
  });
  const header = Buffer.concat([latin1(`%PDF-${version}\n%`), Buffer.from([0xe2, 0xe3, 0xcf, 0xd3]), latin1("\n")]);

  if (options.objectStream?.length) return buildWithObjectStream(options, numbers, header);

  let encryptKey: Buffer | undefined;
  let encryptObject = "";
  let id = "";
  if (options.encrypt) {
    const fileId = createHash("md5").update("pdf-check fixture").digest();
    const security = standardSecurity(options.encrypt.userPassword ?? "", options.encrypt.ownerPassword ?? "owner", fileId);
    encryptKey = security.key;
    encryptObject = security.dict;
    id = `/ID [<${fileId.toString("hex")}> <${fileId.toString("hex")}>]`;
  }

  const parts: Buffer[] = [header];
  const offsets: number[] = [];
  let offset = header.length;
  const push = (buffer: Buffer) => {
    parts.push(buffer);
    offset += buffer.length;
  };
  for (const n of numbers) {
    offsets.push(offset);
    push(serialiseObject(n, objects[n]!, encryptKey));
  }
  let encryptRef = "";
  if (encryptKey) {
    const n = numbers.length + 1;
    offsets.push(offset);
    push(latin1(`${n} 0 obj\n${encryptObject}\nendobj\n`));
    encryptRef = `/Encrypt ${n} 0 R ${id}`;
  }
  const xrefOffset = offset;
  const size = offsets.length + 1;
  // Each entry is exactly 20 bytes: 10-digit offset, 5-digit generation, type, and a two-byte EOL.
  const entries = ["0000000000 65535 f \n", ...offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`)];
  push(latin1(`xref\n0 ${size}\n${entries.join("")}`));
  push(latin1(`trailer\n<< /Size ${size} /Root ${root} 0 R ${encryptRef} ${options.trailer ?? ""} >>\nstartxref\n${xrefOffset}\n%%EOF\n`));
  return Buffer.concat(parts);
}

/** PDF 1.5 layout: the listed objects live compressed in an object stream, found through an xref stream. */
function buildWithObjectStream(options: PdfBuildOptions, numbers: number[], header: Buffer): Buffer {
  const packed = new Set(options.objectStream);
  const { objects, root = 1 } = options;
  const objStmNum = numbers.length + 1;
  const xrefNum = numbers.length + 2;

  // The object stream: "num offset" pairs, then the objects' bodies.
  const bodies: string[] = [];
  const pairs: string[] = [];
  let bodyOffset = 0;
  for (const n of numbers.filter((x) => packed.has(x))) {
    const body = objects[n];
    if (typeof body !== "string") throw new Error(`object ${n} is a stream and cannot go into an object stream`);
    pairs.push(`${n} ${bodyOffset}`);
    bodies.push(body);
    bodyOffset += body.length + 1;
  }
  const pairText = `${pairs.join(" ")}\n`;
  const objStm: PdfObject = {
    dict: `/Type /ObjStm /N ${pairs.length} /First ${pairText.length}`,
    stream: pairText + bodies.join("\n") + "\n",
    deflate: true,
  };

  const parts: Buffer[] = [header];
  let offset = header.length;
  const entries = new Map<number, [number, number, number]>([[0, [0, 0, 0xffff]]]);
  let index = 0;
  for (const n of numbers) {
    if (packed.has(n)) {
      entries.set(n, [2, objStmNum, index++]);
      continue;
    }
    entries.set(n, [1, offset, 0]);
    const bytes = serialiseObject(n, objects[n]!);
    parts.push(bytes);
    offset += bytes.length;
  }
  entries.set(objStmNum, [1, offset, 0]);
  const objStmBytes = serialiseObject(objStmNum, objStm);
  parts.push(objStmBytes);
  offset += objStmBytes.length;
  entries.set(xrefNum, [1, offset, 0]);

  // The xref stream: per object a 1-byte type, 4-byte field 2, 2-byte field 3; compressed the way
  // most PDF writers do it, each row PNG-"Up"-filtered against the one before, then deflated.
  const rows = Buffer.alloc(8 * (xrefNum + 1));
  const row = Buffer.alloc(7);
  const previous = Buffer.alloc(7);
  for (let n = 0; n <= xrefNum; n++) {
    const [type, field2, field3] = entries.get(n)!;
    row.writeUInt8(type, 0);
    row.writeUInt32BE(field2, 1);
    row.writeUInt16BE(field3, 5);
    rows[n * 8] = 2; // PNG filter type: Up
    for (let i = 0; i < 7; i++) rows[n * 8 + 1 + i] = (row[i]! - previous[i]!) & 0xff;
    row.copy(previous);
  }
  const xref = serialiseObject(xrefNum, {
    dict: `/Type /XRef /Size ${xrefNum + 1} /W [1 4 2] /Root ${root} 0 R /DecodeParms << /Predictor 12 /Columns 7 >> ${options.trailer ?? ""}`,
    stream: rows,
    deflate: true,
  });
  parts.push(xref, latin1(`startxref\n${offset}\n%%EOF\n`));
  return Buffer.concat(parts);
}

// --- The standard security handler, revision 2 (PDF 32000-1, 7.6.3) ---------------------------

const PASSWORD_PADDING = Buffer.from("28bf4e5e4e758a4164004e56fffa01082e2e00b6d0683e802f0ca9fe6453697a", "hex");
const PERMISSIONS = -4; // everything allowed: only whether the file is encrypted matters here

const padPassword = (password: string) => Buffer.concat([latin1(password), PASSWORD_PADDING]).subarray(0, 32);
const md5 = (...parts: Buffer[]) => createHash("md5").update(Buffer.concat(parts)).digest();

/** RC4, written out because OpenSSL 3 keeps it in the legacy provider Node does not load. */
export function rc4(key: Buffer, data: Buffer): Buffer {
  const s = Array.from({ length: 256 }, (_, i) => i);
  for (let i = 0, j = 0; i < 256; i++) {
    j = (j + s[i]! + key[i % key.length]!) & 0xff;
    [s[i], s[j]] = [s[j]!, s[i]!];
  }
  const out = Buffer.alloc(data.length);
  for (let k = 0, i = 0, j = 0; k < data.length; k++) {
    i = (i + 1) & 0xff;
    j = (j + s[i]!) & 0xff;
    [s[i], s[j]] = [s[j]!, s[i]!];
    out[k] = data[k]! ^ s[(s[i]! + s[j]!) & 0xff]!;
  }
  return out;
}

function standardSecurity(userPassword: string, ownerPassword: string, fileId: Buffer) {
  const owner = rc4(md5(padPassword(ownerPassword)).subarray(0, 5), padPassword(userPassword));
  const permissions = Buffer.alloc(4);
  permissions.writeInt32LE(PERMISSIONS);
  const key = md5(padPassword(userPassword), owner, permissions, fileId).subarray(0, 5);
  const user = rc4(key, PASSWORD_PADDING);
  return {
    key,
    dict: `<< /Filter /Standard /V 1 /R 2 /Length 40 /O <${owner.toString("hex")}> /U <${user.toString("hex")}> /P ${PERMISSIONS} >>`,
  };
}

function objectKey(fileKey: Buffer, num: number): Buffer {
  const suffix = Buffer.from([num & 0xff, (num >> 8) & 0xff, (num >> 16) & 0xff, 0, 0]);
  return md5(fileKey, suffix).subarray(0, Math.min(fileKey.length + 5, 16));
}

function encryptStrings(body: string, key: Buffer): string {
  return body.replace(/\(([^()\\]*)\)/g, (_, text: string) => `<${rc4(key, latin1(text)).toString("hex")}>`);
}

// --- Ready-made documents ----------------------------------------------------------------------

/** Variations on the standard proof of payment that `makeProofPdf` writes. */
export interface ProofOptions {
  /** Number of pages; each shows a line of text. */
  pages?: number;
  /** Extra catalog entries, e.g. `/OpenAction 9 0 R`. */
  catalog?: string;
  /** Extra entries for the first page, e.g. `/Annots [9 0 R]`. */
  firstPage?: string;
  /** Further objects, numbered after the document's own (see `nextObject`). */
  extra?: (first: number) => PdfObject[];
  trailer?: string;
  objectStream?: "all" | number[];
  encrypt?: PdfBuildOptions["encrypt"];
  /** A small deflated RGB image (a bank's logo) drawn on the first page, as the object after the pages. */
  logo?: boolean;
}

/** The number `makeProofPdf` gives the first of its `extra` objects. */
export function firstExtraObject(options: Pick<ProofOptions, "pages" | "logo"> = {}): number {
  return 5 + (options.pages ?? 1) * 2 + (options.logo ? 1 : 0);
}

/**
 * A bank-style proof of payment: catalog (1), page tree (2), Helvetica (3), an Info dictionary (4),
 * then per page a page object and its content stream, then the logo if asked for. `extra` objects
 * follow.
 */
export function makeProofPdf(options: ProofOptions = {}): Buffer {
  const pageCount = options.pages ?? 1;
  const objects: Record<number, PdfObject> = {};
  const pageNumbers = Array.from({ length: pageCount }, (_, i) => 5 + i * 2);
  const logo = options.logo ? 5 + pageCount * 2 : undefined;
  const first = firstExtraObject(options);
  objects[1] = `<< /Type /Catalog /Pages 2 0 R ${options.catalog ?? ""} >>`;
  objects[2] = `<< /Type /Pages /Kids [${pageNumbers.map((n) => `${n} 0 R`).join(" ")}] /Count ${pageCount} >>`;
  objects[3] = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>";
  objects[4] = "<< /Title (Proof of payment) /Producer (Test Bank App) >>";
  pageNumbers.forEach((n, i) => {
    const extra = i === 0 ? (options.firstPage ?? "") : "";
    const withLogo = i === 0 && logo !== undefined;
    const xobject = withLogo ? ` /XObject << /Im1 ${logo} 0 R >>` : "";
    objects[n] = `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R >>${xobject} >> /Contents ${n + 1} 0 R ${extra} >>`;
    objects[n + 1] = {
      dict: "",
      stream: `${withLogo ? "q 64 0 0 32 72 790 cm /Im1 Do Q " : ""}BT /F1 14 Tf 72 770 Td (Proof of payment - page ${i + 1}) Tj 0 -20 Td (Amount: R 1 499.00  Reference: OW-2024-0042) Tj ET`,
      deflate: true,
    };
  });
  if (logo !== undefined) {
    // A gradient, so the image data is not all one byte.
    const pixels = Buffer.from(Array.from({ length: 32 * 16 * 3 }, (_, i) => (i * 7 + (i >> 5)) & 0xff));
    objects[logo] = { dict: "/Type /XObject /Subtype /Image /Width 32 /Height 16 /ColorSpace /DeviceRGB /BitsPerComponent 8", stream: pixels, deflate: true };
  }
  (options.extra?.(first) ?? []).forEach((object, i) => {
    objects[first + i] = object;
  });
  const objectStream =
    options.objectStream === "all"
      ? Object.entries(objects).filter(([, o]) => typeof o === "string").map(([n]) => Number(n))
      : options.objectStream;
  return buildPdf({ objects, trailer: `/Info 4 0 R ${options.trailer ?? ""}`, objectStream, encrypt: options.encrypt });
}

/**
 * A PDF written by hand, for layouts `buildPdf` will not produce (an object inside another's
 * string, comments inside an object header): `body` follows the header line, and `objects` maps
 * each object number to a unique piece of `body` its cross-reference entry points at.
 */
export function rawPdf(body: string, objects: Record<number, string>, root = 1): Buffer {
  const header = "%PDF-1.7\n";
  const numbers = Object.keys(objects).map(Number).sort((a, b) => a - b);
  const offsets = numbers.map((n) => {
    const at = body.indexOf(objects[n]!);
    if (at < 0 || body.indexOf(objects[n]!, at + 1) >= 0) throw new Error(`marker for object ${n} must occur once in the body`);
    return header.length + at;
  });
  const size = numbers.at(-1)! + 1;
  const entries = Array.from({ length: size }, (_, n) => {
    const i = numbers.indexOf(n);
    return i < 0 ? "0000000000 65535 f \n" : `${String(offsets[i]).padStart(10, "0")} 00000 n \n`;
  });
  const xrefOffset = header.length + body.length;
  return latin1(`${header}${body}xref\n0 ${size}\n${entries.join("")}trailer\n<< /Size ${size} /Root ${root} 0 R >>\nstartxref\n${xrefOffset}\n%%EOF\n`);
}

/**
 * Appends an incremental update after the file's last %%EOF, the way editors save changes:
 * `objects` (new ones, or new versions of existing ones, by number), a cross-reference section
 * listing them, and a trailer whose /Prev points at the original's cross-reference.
 */
export function appendUpdate(base: Buffer, objects: Record<number, PdfObject>, root = 1): Buffer {
  const prev = /startxref\s+(\d+)\s+%%EOF\s*$/.exec(base.toString("latin1"));
  if (!prev) throw new Error("the base PDF must end with startxref and %%EOF");
  const sizes = [...base.toString("latin1").matchAll(/\/Size (\d+)/g)].map((m) => Number(m[1]));
  const numbers = Object.keys(objects).map(Number).sort((a, b) => a - b);
  const size = Math.max(...sizes, numbers.at(-1)! + 1);
  const parts: Buffer[] = [base];
  let offset = base.length;
  const sections: string[] = [];
  for (const n of numbers) {
    sections.push(`${n} 1\n${String(offset).padStart(10, "0")} 00000 n \n`);
    const bytes = serialiseObject(n, objects[n]!);
    parts.push(bytes);
    offset += bytes.length;
  }
  parts.push(latin1(`xref\n${sections.join("")}trailer\n<< /Size ${size} /Root ${root} 0 R /Prev ${prev[1]} >>\nstartxref\n${offset}\n%%EOF\n`));
  return Buffer.concat(parts);
}

/** What `makeLibraryPdf` writes. */
export interface LibraryPdfOptions {
  pages?: number;
  /** A PNG logo on the first page. */
  image?: boolean;
  /** Objects in object streams, found through an xref stream (pdf-lib's default), or a classic table. */
  objectStreams?: boolean;
}

/**
 * A proof of payment written by a real PDF library (pdf-lib's writer, not this file's builder):
 * its own object layout, font and image embedding, and compression, as a bank app's library would.
 */
export async function makeLibraryPdf(options: LibraryPdfOptions = {}): Promise<Buffer> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  doc.setTitle("Proof of payment");
  doc.setProducer("Test Bank App");
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const logo = options.image ? await doc.embedPng(makePng(48, 24, 90)) : undefined;
  for (let i = 0; i < (options.pages ?? 1); i++) {
    const page = doc.addPage([595, 842]);
    page.drawText(`Proof of payment - page ${i + 1}`, { x: 72, y: 770, size: 14, font });
    page.drawText("Amount: R 1 499.00  Reference: OW-2024-0042", { x: 72, y: 750, size: 11, font });
    if (logo && i === 0) page.drawImage(logo, { x: 72, y: 790, width: 48, height: 24 });
  }
  return Buffer.from(await doc.save({ useObjectStreams: options.objectStreams ?? true }));
}
