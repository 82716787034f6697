import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import zlib from "node:zlib";
import { CharCodes, PDFArray, PDFDict, PDFHexString, PDFName, PDFNull, PDFNumber, PDFParser, PDFRawStream, PDFRef, PDFString, type PDFObject } from "@cantoo/pdf-lib";

/**
 * A PDF's objects read with pdf-lib's object parser (@cantoo/pdf-lib): the second opinion behind
 * pdf-check.ts. pdf.js's document API leaves out things that still act in other viewers (a Launch
 * action as /OpenAction, /AA with non-JavaScript actions), so every object is parsed and every
 * name in it is looked at, #-escapes decoded, object streams included.
 *
 * pdf-lib's document loader (PDFDocument.load) is not used on uploads: it skips junk between
 * objects in quadratic time (40 kB of digits take 7 s, synchronously, past any timeout), and it
 * inflates object streams without an output limit. Instead objects are found the way a viewer
 * may find them, at every `obj` keyword in the file (a cross-reference entry points just before
 * one, and pdf.js's repair mode scans for them, even inside another object's string or stream
 * data), and pdf-lib parses the value after each. Stream data (page content, images, fonts) is
 * read only where an `obj` keyword in it could start an object, so a logo's bytes cannot raise a
 * false alarm.
 */

/** What the structure check found. */
export interface PdfStructure {
  /** /Encrypt appears (in a trailer, an xref stream or anywhere else). */
  encrypted: boolean;
  /** A dictionary or array, or an object stream, could not be parsed or decoded, so objects may be unseen. */
  undecodable: boolean;
  /** What makes the file active content, e.g. "JavaScript" or "OpenAction (Launch)"; empty when none. */
  activeContent: string[];
  /** How many distinct object numbers were read, object-stream members included. */
  objectCount: number;
}

/**
 * Names that mean active content wherever they appear (as a key or a value), with what they mean.
 * Legitimate bank statements use none of them.
 */
const ACTIVE_NAMES: Record<string, string> = {
  JavaScript: "JavaScript",
  JS: "JavaScript",
  AA: "additional actions (/AA)",
  Launch: "Launch action",
  SubmitForm: "SubmitForm action",
  ImportData: "ImportData action",
  GoToR: "GoToR action (opens another file)",
  GoToE: "GoToE action (opens an embedded file)",
  Rendition: "Rendition action (media)",
  EmbeddedFiles: "embedded files",
  EmbeddedFile: "embedded files",
  EF: "embedded files",
  FileAttachment: "file attachment annotation",
  Collection: "PDF portfolio",
  XFA: "XFA form",
  RichMedia: "rich media",
  RichMediaExecute: "rich media",
  Movie: "movie",
  Sound: "sound",
  Screen: "screen annotation (media)",
  "3D": "3D content",
};

// Bounds, so that a hostile file costs bounded time and memory (uploads are at most
// MAX_UPLOAD_BYTES, 5 MB, before they get here).
const MAX_DECODED_BYTES = 64 * 1024 * 1024; // all decoded object streams together
const MAX_DEPTH = 64; // nesting of arrays and dictionaries
const MAX_OBJECTS_PER_STREAM = 100_000;
const MAX_VALUES = 1_000_000; // parsed values, weighted by what pdf-lib keeps for them
const TIMEOUT_MS = 10_000;

/** Thrown when a file needs more work than any real proof of payment would. */
export class PdfStructureLimitError extends Error {
  constructor(what: string) {
    super(`PDF structure limit exceeded: ${what}`);
    this.name = "PdfStructureLimitError";
  }
}

// pdf-lib interns every PDFName and PDFRef in process-wide pools that are never emptied, so a
// file with a million distinct names would keep their memory for the life of the server. Only the
// names this check compares (and pdf-lib's parser looks up) are made real names; any other name
// is recorded as text and stands in as OTHER. References are kept only for plausible numbers.
const COMPARED_NAMES = new Set([
  ...Object.keys(ACTIVE_NAMES),
  ...["Type", "Catalog", "Pages", "Page", "Length", "ObjStm", "First", "N", "Filter", "DecodeParms", "Predictor", "FlateDecode", "Fl"],
  ...["OpenAction", "S", "Next", "GoTo", "Named", "URI", "Thread", "Hide", "ResetForm", "SetOCGState", "Trans", "GoTo3DView"],
]);
const OTHER = PDFName.of("\0");
const MAX_REF_NUMBER = 1 << 16;
const UNRESOLVED_REF = PDFRef.of(0, 65_535);
const name = (text: string) => PDFName.of(text);

/** Per check: what has been seen, and what is left of the budgets. */
class Scan {
  readonly names = new Set<string>();
  readonly dicts: PDFDict[] = [];
  readonly objects = new Map<number, PDFObject[]>();
  readonly objectStreams: PDFRawStream[] = [];
  undecodable = false;
  private values = 0;
  private calls = 0;
  private decoded = 0;
  private lastYield = Date.now();

  constructor(
    private bytesLeft: number,
    private readonly deadline: number,
  ) {}

  /** Counts parsed values; checked from inside pdf-lib's parse, so a huge object is cut short. */
  spendValues(count: number) {
    this.values += count;
    if (this.values > MAX_VALUES) throw new PdfStructureLimitError("values");
    if (++this.calls % 1024 === 0 && Date.now() > this.deadline) throw new PdfStructureLimitError("time");
  }

  /** Counts bytes parsed: objects found inside other objects are parsed again, so this must be bounded. */
  spendBytes(count: number) {
    this.bytesLeft -= count;
    if (this.bytesLeft < 0) throw new PdfStructureLimitError("bytes read");
  }

  /** Room left for decoded object-stream data; decoded data is parsed too, so it adds to the byte budget. */
  decodeRoom() {
    return MAX_DECODED_BYTES - this.decoded;
  }

  addDecoded(length: number) {
    this.decoded += length;
    this.bytesLeft += 3 * length;
  }

  /** Between objects: give up past the deadline, and let other requests run now and then. */
  async pace() {
    const now = Date.now();
    if (now > this.deadline) throw new PdfStructureLimitError("time");
    if (now - this.lastYield > 20) {
      await yieldToEventLoop();
      this.lastYield = Date.now();
    }
  }

  addObject(num: number | undefined, value: PDFObject) {
    if (value instanceof PDFRawStream && isObjectStream(value)) this.objectStreams.push(value);
    if (num === undefined) return;
    // Stream data is not needed after this: keep only the dictionary.
    const kept = value instanceof PDFRawStream ? value.dict : value;
    const list = this.objects.get(num);
    if (list) list.push(kept);
    else this.objects.set(num, [kept]);
  }
}

const isDigit = (byte: number | undefined) => byte !== undefined && byte >= 0x30 && byte <= 0x39;
const ENDS_NAME = new Set([..."\0\t\n\f\r ()<>[]{}/%"].map((c) => c.charCodeAt(0)));
const latin1 = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1");

/**
 * pdf-lib's object parser over one buffer (the file, or a decoded object stream), reporting what
 * it parses to the scan. PDFParser is extended only because its constructor builds the byte
 * stream pdf-lib does not export; its document-level methods are never called.
 */
class ObjectReader extends PDFParser {
  private depth = 0;

  constructor(
    data: Uint8Array,
    private readonly scan: Scan,
  ) {
    super(data);
  }

  /**
   * The value at `offset` (after whitespace and comments) and where it ends, or undefined if
   * pdf-lib cannot parse it. A dictionary or array that fails may hide names from this check
   * (pdf.js is more forgiving), so it marks the file undecodable unless `lenient`; anything else
   * that fails holds no names. With `containersOnly`, nothing else is parsed at all.
   */
  valueAt(offset: number, options: { lenient?: boolean; containersOnly?: boolean } = {}): { value: PDFObject; end: number } | undefined {
    this.bytes.moveTo(offset);
    this.skipWhitespaceAndComments();
    const start = this.bytes.offset();
    const container = this.bytes.peek() === CharCodes.LeftSquareBracket || (this.bytes.peek() === CharCodes.LessThan && this.bytes.peekAhead(1) === CharCodes.LessThan);
    if (options.containersOnly && !container) return undefined;
    try {
      const value = this.parseObject();
      this.scan.spendBytes(this.bytes.offset() - start);
      return { value, end: this.bytes.offset() };
    } catch (error) {
      // Any error of pdf-lib's means it cannot parse this value.
      if (error instanceof PdfStructureLimitError) throw error;
      this.scan.spendBytes(Math.max(1, this.bytes.offset() - start));
      if (container && !options.lenient) this.scan.undecodable = true;
      return undefined;
    }
  }

  override parseObject(ref?: PDFRef): PDFObject {
    this.scan.spendValues(1);
    return super.parseObject(ref);
  }

  protected override parseDict(ref?: PDFRef): PDFDict {
    const dict = this.nested(4, () => super.parseDict(ref));
    this.scan.dicts.push(dict);
    return dict;
  }

  protected override parseArray(ref?: PDFRef): PDFArray {
    return this.nested(2, () => super.parseArray(ref));
  }

  private nested<T>(weight: number, parse: () => T): T {
    if (++this.depth > MAX_DEPTH) throw new PdfStructureLimitError("nesting depth");
    this.scan.spendValues(weight);
    try {
      return parse();
    } finally {
      this.depth--;
    }
  }

  /** pdf-lib's name lexing, without interning the name (see COMPARED_NAMES). */
  protected override parseName(): PDFName {
    this.bytes.assertNext(CharCodes.ForwardSlash);
    const start = this.bytes.offset();
    while (!this.bytes.done() && !ENDS_NAME.has(this.bytes.peek())) this.bytes.next();
    // #xx stands for one byte (PDF 1.2 and later), so /J#53 is the same name as /JS.
    const text = latin1(this.bytes.slice(start, this.bytes.offset())).replace(/#([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    this.scan.names.add(text);
    this.scan.spendValues(1);
    return COMPARED_NAMES.has(text) ? name(text) : OTHER;
  }

  /** pdf-lib's number-or-reference, keeping references in bounds (see COMPARED_NAMES). */
  protected override parseNumberOrRef(): PDFNumber | PDFRef {
    const first = this.number();
    this.skipWhitespaceAndComments();
    const afterFirst = this.bytes.offset();
    if (isDigit(this.bytes.peek())) {
      const second = this.number();
      this.skipWhitespaceAndComments();
      if (this.bytes.peek() === CharCodes.R) {
        this.bytes.next();
        return Number.isInteger(first) && first >= 0 && first < MAX_REF_NUMBER && Number.isInteger(second) ? PDFRef.of(first, 0) : UNRESOLVED_REF;
      }
    }
    this.bytes.moveTo(afterFirst);
    return PDFNumber.of(first);
  }

  private number(): number {
    // pdf-lib logs every number past 2^53 with all its digits; a file full of them would flood the log.
    let at = this.bytes.offset();
    while (this.bytes.peekAt(at) === CharCodes.Plus || this.bytes.peekAt(at) === CharCodes.Minus) at++;
    const digitsFrom = at;
    while (isDigit(this.bytes.peekAt(at))) at++;
    if (at - digitsFrom > 15) throw new Error("number too large");
    return this.parseRawNumber();
  }
}

// "obj" as a keyword: after whitespace or the end of a number (the generation), and followed by
// whitespace, a delimiter or the end. A cross-reference entry's object, and any object pdf.js's
// repair mode finds, starts right after one (headers may even carry comments: `5 %x\n0 obj`).
const OBJ_KEYWORD = /(?<=[\0\t\n\f\r 0-9.+-])obj(?=[\0\t\n\f\r ()<>[\]{}/%]|$)/g;
const TRAILER_KEYWORD = /trailer/g;
const SEPARATOR = String.raw`(?:[\0\t\n\f\r ]|%[^\r\n]*[\r\n])`;
const HEADER_BEFORE = new RegExp(String.raw`([+-]?\d*\.?\d+)${SEPARATOR}+[+-]?\d*\.?\d+${SEPARATOR}*$`);

/** The object number in the header that ends at `objAt`, if it reads as one. */
function objectNumberBefore(text: string, objAt: number): number | undefined {
  const match = HEADER_BEFORE.exec(text.slice(Math.max(0, objAt - 64), objAt));
  const num = match ? Number(match[1]) : NaN;
  return Number.isInteger(num) && num >= 0 ? num : undefined;
}

/** pdf.js reads any stream as an object stream without checking its /Type; /First exists only in object streams. */
function isObjectStream(stream: PDFRawStream) {
  return stream.dict.get(name("First")) !== undefined || stream.dict.get(name("Type")) === name("ObjStm");
}

const count = (value: PDFObject | undefined) => (value instanceof PDFNumber && Number.isInteger(value.asNumber()) && value.asNumber() >= 0 ? value.asNumber() : undefined);

/**
 * An object stream's data, or undefined when it cannot be decoded within `room` bytes. Only
 * FlateDecode, the filter every writer uses for object streams, is decoded, by Node's zlib with
 * an output limit (pdf-lib's own inflater has none within a deflate block); other filters and
 * predictors (which pdf-lib does not implement either) leave the stream undecodable.
 */
function decodeObjectStream(stream: PDFRawStream, room: number): Uint8Array | undefined {
  const filter = stream.dict.get(name("Filter"));
  const filters = filter === undefined ? [] : filter instanceof PDFArray ? filter.asArray() : [filter];
  if (!filters.every((f) => f === name("FlateDecode") || f === name("Fl"))) return undefined;
  const parms = stream.dict.get(name("DecodeParms"));
  const parmList = parms === undefined ? [] : parms instanceof PDFArray ? parms.asArray() : [parms];
  for (const parm of parmList) {
    if (parm === PDFNull) continue;
    if (!(parm instanceof PDFDict)) return undefined;
    const predictor = parm.get(name("Predictor"));
    if (predictor !== undefined && count(predictor) !== 1) return undefined;
  }
  let data: Uint8Array = stream.contents;
  for (let i = 0; i < filters.length; i++) {
    try {
      // Like pdf.js, accept a stream whose end is missing or followed by stray bytes.
      data = zlib.inflateSync(data, { finishFlush: zlib.constants.Z_SYNC_FLUSH, maxOutputLength: room });
    } catch {
      return undefined;
    }
  }
  return data;
}

/** Reads an object stream's members: "num offset" pairs, then the objects from /First. */
async function readObjectStream(stream: PDFRawStream, scan: Scan) {
  const members = count(stream.dict.get(name("N")));
  const first = count(stream.dict.get(name("First")));
  const room = scan.decodeRoom();
  const data = members === undefined || first === undefined || members > MAX_OBJECTS_PER_STREAM || room <= 0 ? undefined : decodeObjectStream(stream, room);
  if (data === undefined || first === undefined || members === undefined) {
    scan.undecodable = true;
    return;
  }
  scan.addDecoded(data.length);
  const reader = new ObjectReader(data, scan);
  let at = 0;
  for (let i = 0; i < members; i++) {
    await scan.pace();
    const num = reader.valueAt(at, { lenient: true });
    const offset = num && reader.valueAt(num.end, { lenient: true });
    const [objectNumber, objectOffset] = [count(num?.value), count(offset?.value)];
    if (!offset || objectNumber === undefined || objectOffset === undefined) break;
    at = offset.end;
    const member = reader.valueAt(first + objectOffset);
    if (member) scan.addObject(objectNumber, member.value);
  }
  // Also the names in every value in sequence from /First, whatever the header claims (pdf.js
  // reaches members only through the header, so nothing more is kept from these).
  for (let next = reader.valueAt(first, { lenient: true }); next && next.end < data.length; next = reader.valueAt(next.end, { lenient: true })) await scan.pace();
}

/**
 * Why an /OpenAction is active content, or undefined when it only says where to open: a
 * destination (an array like [page /FitH null], or a named one) or a plain GoTo action. Many
 * PDF libraries (jsPDF, FPDF) write `/OpenAction [3 0 R /FitH null]` into every file.
 */
function openActionProblem(value: PDFObject, objects: Map<number, PDFObject[]>): string | undefined {
  const candidates = value instanceof PDFRef ? (value === UNRESOLVED_REF ? [] : (objects.get(value.objectNumber) ?? [])) : [value];
  // An action that cannot be seen cannot be vouched for.
  if (candidates.length === 0) return "unresolved";
  for (const candidate of candidates) {
    if (candidate instanceof PDFArray || candidate instanceof PDFString || candidate instanceof PDFHexString || candidate instanceof PDFName || candidate === PDFNull) continue;
    if (!(candidate instanceof PDFDict)) return "not a destination";
    const type = candidate.get(name("S"));
    if (!(type instanceof PDFName)) return "action without a type";
    if (type !== name("GoTo") || candidate.get(name("Next"), true) !== undefined) return type === OTHER ? "action" : type.asString().slice(1);
  }
  return undefined;
}

/**
 * Parses every object a viewer could reach, object streams included, and reports encryption and
 * active content. Throws PdfStructureLimitError when the file needs more time or memory than any
 * real proof of payment (a refusal as unreadable).
 */
export async function inspectPdfStructure(bytes: Uint8Array, options: { timeoutMs?: number } = {}): Promise<PdfStructure> {
  const scan = new Scan(8 * bytes.length + 1_000_000, Date.now() + (options.timeoutMs ?? TIMEOUT_MS));
  const text = latin1(bytes);
  const reader = new ObjectReader(bytes, scan);

  for (const match of text.matchAll(OBJ_KEYWORD)) {
    await scan.pace();
    const read = reader.valueAt(match.index + 3);
    if (read) scan.addObject(objectNumberBefore(text, match.index), read.value);
  }
  // Trailers (and what pdf.js's repair mode takes for one) hold /Encrypt and may hold the catalog itself.
  for (const match of text.matchAll(TRAILER_KEYWORD)) {
    await scan.pace();
    reader.valueAt(match.index + "trailer".length, { containersOnly: true });
  }
  // Members may themselves be object streams: the list grows while it is read.
  for (let i = 0; i < scan.objectStreams.length; i++) await readObjectStream(scan.objectStreams[i]!, scan);

  const activeContent = new Set<string>();
  for (const found of scan.names) {
    // Own keys only: a PDF may well contain a name like /constructor.
    if (Object.hasOwn(ACTIVE_NAMES, found)) activeContent.add(ACTIVE_NAMES[found]!);
  }
  for (const dict of scan.dicts) {
    const openAction = dict.get(name("OpenAction"));
    const problem = openAction && openActionProblem(openAction, scan.objects);
    if (problem) activeContent.add(`OpenAction (${problem})`);
  }
  return { encrypted: scan.names.has("Encrypt"), undecodable: scan.undecodable, activeContent: [...activeContent], objectCount: scan.objects.size };
}
