import zlib from "node:zlib";

/**
 * A PDF's objects as pdf.js can reach them, read without pdf.js: the second opinion behind
 * pdf-check.ts. pdf.js's document API leaves out things that still act in other viewers (a Launch
 * action as /OpenAction, /AA with non-JavaScript actions, JavaScript with an empty body), so the
 * objects themselves are parsed and every name in them is looked at.
 *
 * A regex over the raw bytes is not enough: objects may sit compressed in object streams, and
 * names may be spelled with #-escapes (/J#53 is /JS). So this parses objects, decodes object
 * streams, and finds objects the way pdf.js does: at every offset a cross-reference section
 * lists, and at every "num gen obj" header anywhere (pdf.js's repair mode scans for those, even
 * inside another object's string or stream data). Stream data (page content, images, fonts) is
 * not read as objects, so a logo image cannot produce a false alarm.
 */

/** What the object scan found. */
export interface PdfObjectScan {
  /** The trailer (or an xref stream) has /Encrypt. */
  encrypted: boolean;
  /** An object or xref stream could not be decoded (unknown filter, corrupt, or too large), so objects may be unseen. */
  undecodable: boolean;
  /** What makes the file active content, e.g. "JavaScript" or "OpenAction (Launch)"; empty when none. */
  activeContent: string[];
  /** How many distinct objects were parsed, object-stream members included. */
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

// Bounds, so that a hostile file costs bounded time and memory.
const MAX_DECODED_BYTES = 64 * 1024 * 1024; // all decoded object and xref streams together
const MAX_DEPTH = 64; // nesting of arrays and dictionaries
const MAX_XREF_SECTIONS = 64;
const MAX_OBJECTS_PER_STREAM = 100_000;

/** Thrown when a file needs more work than any real proof of payment would. */
export class PdfScanLimitError extends Error {
  constructor(what: string) {
    super(`PDF scan limit exceeded: ${what}`);
    this.name = "PdfScanLimitError";
  }
}

// --- Values -------------------------------------------------------------------------------------

class Name {
  constructor(readonly name: string) {}
}
class Ref {
  constructor(
    readonly num: number,
    readonly gen: number,
  ) {}
}
class Dict {
  readonly entries = new Map<string, Value>();
  get(key: string): Value | undefined {
    return this.entries.get(key);
  }
}
/** Any string: its content is never needed. */
const STRING = Symbol("string");
/** Operators and structure words: obj, endobj, stream, R, trailer, xref, n, f, and stray delimiters. */
class Keyword {
  constructor(readonly word: string) {}
}
type Value = null | boolean | number | Name | Ref | Dict | Value[] | typeof STRING;
type Token = number | Name | Keyword | typeof STRING;

const DICT_OPEN = new Keyword("<<");
const DICT_CLOSE = new Keyword(">>");

// --- Lexer (PDF 32000-1, 7.2) -------------------------------------------------------------------

const isWhite = (c: number) => c === 0x00 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d || c === 0x20;
const isDelimiter = (c: number) =>
  c === 0x28 || c === 0x29 || c === 0x3c || c === 0x3e || c === 0x5b || c === 0x5d || c === 0x7b || c === 0x7d || c === 0x2f || c === 0x25;
const hexValue = (c: number) => (c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x41 && c <= 0x46 ? c - 0x37 : c >= 0x61 && c <= 0x66 ? c - 0x57 : -1);
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)$/;

/** A shared allowance of bytes the lexer may read: a crafted file cannot make the scan quadratic. */
interface Budget {
  bytes: number;
}

class Lexer {
  pos: number;

  constructor(
    private readonly data: Uint8Array,
    start: number,
    private readonly names: Set<string>,
    private readonly budget: Budget,
  ) {
    this.pos = start;
  }

  next(): Token | undefined {
    const { data } = this;
    const start = this.pos;
    try {
      return this.read(data);
    } finally {
      this.budget.bytes -= this.pos - start;
      if (this.budget.bytes < 0) throw new PdfScanLimitError("bytes read");
    }
  }

  private read(data: Uint8Array): Token | undefined {
    for (;;) {
      while (this.pos < data.length && isWhite(data[this.pos]!)) this.pos++;
      if (data[this.pos] !== 0x25) break;
      while (this.pos < data.length && data[this.pos] !== 0x0a && data[this.pos] !== 0x0d) this.pos++;
    }
    if (this.pos >= data.length) return undefined;
    const c = data[this.pos]!;
    switch (c) {
      case 0x28: // (
        this.skipLiteralString();
        return STRING;
      case 0x3c: // <
        if (data[this.pos + 1] === 0x3c) {
          this.pos += 2;
          return DICT_OPEN;
        }
        while (this.pos < data.length && data[this.pos] !== 0x3e) this.pos++;
        this.pos++;
        return STRING;
      case 0x3e: // >
        if (data[this.pos + 1] === 0x3e) {
          this.pos += 2;
          return DICT_CLOSE;
        }
        this.pos++;
        return new Keyword(">");
      case 0x2f: // /
        return this.readName();
      case 0x5b:
      case 0x5d:
      case 0x7b:
      case 0x7d:
      case 0x29:
        this.pos++;
        return new Keyword(String.fromCharCode(c));
    }
    const start = this.pos;
    while (this.pos < data.length && !isWhite(data[this.pos]!) && !isDelimiter(data[this.pos]!)) this.pos++;
    const word = String.fromCharCode(...data.subarray(start, Math.min(this.pos, start + 64)));
    return NUMBER.test(word) ? Number(word) : new Keyword(word);
  }

  private skipLiteralString() {
    const { data } = this;
    let depth = 0;
    while (this.pos < data.length) {
      const c = data[this.pos++]!;
      if (c === 0x5c) this.pos++;
      else if (c === 0x28) depth++;
      else if (c === 0x29 && --depth === 0) return;
    }
  }

  private readName(): Name {
    const { data } = this;
    this.pos++;
    const bytes: number[] = [];
    while (this.pos < data.length && !isWhite(data[this.pos]!) && !isDelimiter(data[this.pos]!)) {
      const c = data[this.pos]!;
      const high = c === 0x23 ? hexValue(data[this.pos + 1] ?? -1) : -1;
      const low = high >= 0 ? hexValue(data[this.pos + 2] ?? -1) : -1;
      // #xx stands for one byte (PDF 1.2 and later), so /J#53 is the same name as /JS.
      if (low >= 0) {
        bytes.push(high * 16 + low);
        this.pos += 3;
      } else {
        bytes.push(c);
        this.pos++;
      }
    }
    const name = Buffer.from(bytes).toString("latin1");
    this.names.add(name);
    return new Name(name);
  }
}

// --- Parser -------------------------------------------------------------------------------------

const isInteger = (token: unknown): token is number => typeof token === "number" && Number.isInteger(token) && token >= 0;
const isKeyword = (token: Token | Value | undefined, word: string) => token instanceof Keyword && token.word === word;

class Parser {
  /** Tokens read ahead (to tell `1 0 R` from two numbers), with the offset just after each. */
  private readonly ahead: { token: Token | undefined; end: number }[] = [];
  /** Offset just after the last token handed out. */
  end: number;

  constructor(
    readonly lexer: Lexer,
    readonly dicts: Dict[],
  ) {
    this.end = lexer.pos;
  }

  private fill(count: number) {
    while (this.ahead.length < count) this.ahead.push({ token: this.lexer.next(), end: this.lexer.pos });
  }

  peek(index = 0): Token | undefined {
    this.fill(index + 1);
    return this.ahead[index]!.token;
  }

  next(): Token | undefined {
    this.fill(1);
    const { token, end } = this.ahead.shift()!;
    this.end = end;
    return token;
  }

  /** The next value; a keyword (`endobj`, `>>`, `stream`, ...) comes back as itself, the end as undefined. */
  value(depth = 0): Value | Keyword | undefined {
    const token = this.next();
    if (isInteger(token) && isInteger(this.peek(0)) && isKeyword(this.peek(1), "R")) {
      const gen = this.next() as number;
      this.next();
      return new Ref(token, gen);
    }
    if (token === DICT_OPEN || isKeyword(token, "[")) {
      if (depth >= MAX_DEPTH) throw new PdfScanLimitError("nesting depth");
      return token === DICT_OPEN ? this.dict(depth) : this.array(depth);
    }
    if (token instanceof Keyword) {
      if (token.word === "true" || token.word === "false") return token.word === "true";
      if (token.word === "null") return null;
    }
    return token;
  }

  private dict(depth: number): Dict {
    const dict = new Dict();
    this.dicts.push(dict);
    for (;;) {
      const key = this.next();
      if (key === undefined || key === DICT_CLOSE || isStructural(key)) return dict;
      if (!(key instanceof Name)) continue; // tolerate junk between entries, as pdf.js does
      const value = this.value(depth + 1);
      if (value === undefined || value === DICT_CLOSE || isStructural(value)) return dict;
      if (!(value instanceof Keyword)) dict.entries.set(key.name, value);
    }
  }

  private array(depth: number): Value[] {
    const array: Value[] = [];
    for (;;) {
      const value = this.value(depth + 1);
      if (value === undefined || isKeyword(value, "]") || isStructural(value)) return array;
      if (!(value instanceof Keyword)) array.push(value);
    }
  }
}

/** Words that end any object being read, so a broken one cannot swallow the rest of the file. */
const isStructural = (token: Token | Value) =>
  token instanceof Keyword && (token.word === "endobj" || token.word === "stream" || token.word === "obj" || token.word === "trailer" || token.word === "xref");

// --- Stream decoding ----------------------------------------------------------------------------

function filtersOf(dict: Dict): { filters: string[]; parms: (Dict | undefined)[] } | undefined {
  const filter = dict.get("Filter") ?? dict.get("F");
  const parm = dict.get("DecodeParms") ?? dict.get("DP");
  const filters = filter === undefined || filter === null ? [] : Array.isArray(filter) ? filter : [filter];
  if (!filters.every((f): f is Name => f instanceof Name)) return undefined;
  const parms = Array.isArray(parm) ? parm : [parm];
  return { filters: filters.map((f) => f.name), parms: filters.map((_, i) => (parms[i] instanceof Dict ? parms[i] : undefined)) };
}

/** The decoded data of a stream, or undefined when a filter is unsupported or the data is corrupt. */
function decodeStream(dict: Dict, data: Uint8Array, budget: { decoded: number }): Uint8Array | undefined {
  const chain = filtersOf(dict);
  if (!chain) return undefined;
  let out = data;
  for (const [i, filter] of chain.filters.entries()) {
    const decoded = decodeOne(filter, chain.parms[i], out, MAX_DECODED_BYTES - budget.decoded);
    if (!decoded) return undefined;
    budget.decoded += decoded.length;
    out = decoded;
  }
  return out;
}

function decodeOne(filter: string, parms: Dict | undefined, data: Uint8Array, room: number): Uint8Array | undefined {
  if (room <= 0) return undefined;
  switch (filter) {
    case "FlateDecode":
    case "Fl": {
      let inflated: Uint8Array;
      try {
        // Like pdf.js, accept a stream whose end is missing or followed by stray bytes.
        inflated = zlib.inflateSync(data, { finishFlush: zlib.constants.Z_SYNC_FLUSH, maxOutputLength: room });
      } catch {
        return undefined;
      }
      return unpredict(inflated, parms);
    }
    case "ASCIIHexDecode":
    case "AHx":
      return asciiHex(data);
    case "ASCII85Decode":
    case "A85":
      return ascii85(data);
    default:
      // LZW, RunLength, Crypt and image codecs: no bank app uses them for object or xref streams.
      return undefined;
  }
}

/** Undoes a PNG predictor (the only kind used on object and xref streams in practice). */
function unpredict(data: Uint8Array, parms: Dict | undefined): Uint8Array | undefined {
  const predictor = parms?.get("Predictor") ?? 1;
  if (predictor === 1) return data;
  if (typeof predictor !== "number" || predictor < 10) return undefined;
  const colors = numberOr(parms?.get("Colors"), 1);
  const bits = numberOr(parms?.get("BitsPerComponent"), 8);
  const columns = numberOr(parms?.get("Columns"), 1);
  const bpp = Math.max(1, Math.ceil((colors * bits) / 8));
  const rowLength = Math.ceil((columns * colors * bits) / 8);
  if (rowLength < 1 || rowLength > 1 << 20) return undefined;
  const rows = Math.floor(data.length / (rowLength + 1));
  const out = new Uint8Array(rows * rowLength);
  for (let r = 0; r < rows; r++) {
    const type = data[r * (rowLength + 1)]!;
    const row = data.subarray(r * (rowLength + 1) + 1, (r + 1) * (rowLength + 1));
    const at = r * rowLength;
    for (let i = 0; i < rowLength; i++) {
      const left = i >= bpp ? out[at + i - bpp]! : 0;
      const up = r > 0 ? out[at - rowLength + i]! : 0;
      const upLeft = r > 0 && i >= bpp ? out[at - rowLength + i - bpp]! : 0;
      let value = row[i]!;
      if (type === 1) value += left;
      else if (type === 2) value += up;
      else if (type === 3) value += (left + up) >> 1;
      else if (type === 4) {
        const p = left + up - upLeft;
        const [pa, pb, pc] = [Math.abs(p - left), Math.abs(p - up), Math.abs(p - upLeft)];
        value += pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft;
      } else if (type !== 0) return undefined;
      out[at + i] = value & 0xff;
    }
  }
  return out;
}

const numberOr = (value: Value | undefined, fallback: number) => (typeof value === "number" && Number.isInteger(value) && value > 0 ? value : fallback);

function asciiHex(data: Uint8Array): Uint8Array {
  const out: number[] = [];
  let high = -1;
  for (const c of data) {
    if (c === 0x3e) break;
    const v = hexValue(c);
    if (v < 0) continue;
    if (high < 0) high = v;
    else {
      out.push(high * 16 + v);
      high = -1;
    }
  }
  if (high >= 0) out.push(high * 16);
  return Uint8Array.from(out);
}

function ascii85(data: Uint8Array): Uint8Array | undefined {
  const out: number[] = [];
  const group: number[] = [];
  const flush = (count: number) => {
    let value = 0;
    for (let i = 0; i < 5; i++) value = value * 85 + (group[i] ?? 84);
    for (let i = 0; i < count - 1; i++) out.push((value >>> (24 - 8 * i)) & 0xff);
  };
  for (let i = 0; i < data.length; i++) {
    const c = data[i]!;
    if (c === 0x7e) break; // ~> ends the data
    if (isWhite(c)) continue;
    if (c === 0x7a && group.length === 0) {
      out.push(0, 0, 0, 0);
      continue;
    }
    if (c < 0x21 || c > 0x75) return undefined;
    group.push(c - 0x21);
    if (group.length === 5) {
      flush(5);
      group.length = 0;
    }
  }
  if (group.length === 1) return undefined;
  if (group.length > 1) flush(group.length);
  return Uint8Array.from(out);
}

// --- The scan -----------------------------------------------------------------------------------

interface ParsedObject {
  num: number;
  value: Value;
  stream?: Uint8Array;
}

/** Parses every object pdf.js could reach and reports encryption and active content. */
export function scanPdfObjects(bytes: Uint8Array): PdfObjectScan {
  const names = new Set<string>();
  const dicts: Dict[] = [];
  const budget: Budget = { bytes: 8 * bytes.length + 1_000_000 };
  const decodeBudget = { decoded: 0 };
  const objects = new Map<number, Value[]>();
  const trailers: Dict[] = [];
  const seenHeaders = new Set<number>();
  let undecodable = false;
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1");

  const parserAt = (data: Uint8Array, offset: number) => new Parser(new Lexer(data, offset, names, budget), dicts);

  const addObject = (num: number, value: Value) => {
    const list = objects.get(num);
    if (list) list.push(value);
    else objects.set(num, [value]);
  };

  /** Reads `num gen obj` at `offset` of the file (comments allowed between, as pdf.js's lexer allows), then the object. */
  const readObjectAt = (offset: number): ParsedObject | undefined => {
    const parser = parserAt(bytes, offset);
    const num = parser.next();
    const gen = parser.next();
    if (!isInteger(num) || !isInteger(gen) || !isKeyword(parser.next(), "obj")) return undefined;
    return readObjectBody(num, parser.end);
  };

  /** Reads an object's value, and its stream data if it is a stream, starting just after `obj`. */
  const readObjectBody = (num: number, afterObj: number): ParsedObject | undefined => {
    if (seenHeaders.has(afterObj)) return undefined;
    seenHeaders.add(afterObj);
    const parser = parserAt(bytes, afterObj);
    const value = parser.value();
    if (value === undefined || value instanceof Keyword) return { num, value: null };
    addObject(num, value);
    if (!(value instanceof Dict) || !isKeyword(parser.peek(), "stream")) return { num, value };
    parser.next();
    return { num, value, stream: bytes.subarray(...streamRange(parser.end, value)) };
  };

  /** Where a stream's data lies: by its /Length when "endstream" follows there (as pdf.js checks), else up to the first "endstream". */
  const streamRange = (afterKeyword: number, dict: Dict): [number, number] => {
    let start = afterKeyword;
    if (bytes[start] === 0x0d) start++;
    if (bytes[start] === 0x0a) start++;
    const length = dict.get("Length");
    if (typeof length === "number" && Number.isInteger(length) && length >= 0 && start + length <= bytes.length) {
      let after = start + length;
      while (after < bytes.length && isWhite(bytes[after]!)) after++;
      if (text.startsWith("endstream", after)) return [start, start + length];
    }
    const end = text.indexOf("endstream", start);
    return [start, end < 0 ? bytes.length : end];
  };

  const handleStream = (object: ParsedObject) => {
    const dict = object.value;
    if (!(dict instanceof Dict) || !object.stream) return;
    // pdf.js reads an object stream or xref stream without checking its /Type, so neither does
    // this: /First exists only in object streams, /W only in xref streams.
    const type = dict.get("Type");
    const kind =
      dict.get("First") !== undefined || (type instanceof Name && type.name === "ObjStm")
        ? "objects"
        : dict.get("W") !== undefined || (type instanceof Name && type.name === "XRef")
          ? "xref"
          : undefined;
    if (!kind) return;
    const decoded = decodeStream(dict, object.stream, decodeBudget);
    if (!decoded) {
      undecodable = true;
      return;
    }
    // Decoded data is read again by the lexer: allow for it.
    budget.bytes += 3 * decoded.length;
    if (kind === "objects") readObjectStream(dict, decoded);
    else {
      const offsets = xrefStreamOffsets(dict, decoded);
      if (!offsets) undecodable = true;
      else for (const offset of offsets) pending.push(offset);
    }
  };

  /** The members of an object stream: "num offset" pairs, then the objects from /First. */
  const readObjectStream = (dict: Dict, data: Uint8Array) => {
    const count = dict.get("N");
    const first = dict.get("First");
    if (!isInteger(count) || !isInteger(first) || count > MAX_OBJECTS_PER_STREAM) {
      undecodable = true;
      return;
    }
    const header = parserAt(data, 0);
    for (let i = 0; i < count; i++) {
      const num = header.next();
      const offset = header.next();
      if (!isInteger(num) || !isInteger(offset)) break;
      const value = parserAt(data, first + offset).value();
      if (value !== undefined && !(value instanceof Keyword)) addObject(num, value);
    }
    // Also every name anywhere in the decoded data, whatever the header claims.
    const all = parserAt(data, 0);
    while (all.next() !== undefined);
  };

  // 1. Cross-reference sections from startxref, with /Prev and /XRefStm: the offsets pdf.js reads
  //    objects at (where a header may even carry comments between its tokens).
  const pending: number[] = [];
  const queue: number[] = [];
  const headers: { num: number; afterObj: number }[] = [];
  const startxref = text.lastIndexOf("startxref");
  if (startxref >= 0) {
    const offset = parserAt(bytes, startxref + "startxref".length).next();
    if (isInteger(offset)) queue.push(offset);
  }
  const seenSections = new Set<number>();
  const followTrailer = (trailer: Dict) => {
    trailers.push(trailer);
    for (const key of ["Prev", "XRefStm"]) {
      const offset = trailer.get(key);
      if (isInteger(offset)) queue.push(offset);
    }
  };
  while (queue.length) {
    const offset = queue.shift()!;
    if (seenSections.has(offset) || offset >= bytes.length) continue;
    if (seenSections.size >= MAX_XREF_SECTIONS) throw new PdfScanLimitError("cross-reference sections");
    seenSections.add(offset);
    const parser = parserAt(bytes, offset);
    if (isKeyword(parser.peek(), "xref")) {
      parser.next();
      for (let token = parser.next(); token !== undefined; token = parser.next()) {
        if (isKeyword(token, "trailer")) {
          const trailer = parser.value();
          if (trailer instanceof Dict) followTrailer(trailer);
          break;
        }
        const count = parser.next();
        if (!isInteger(token) || !isInteger(count)) break;
        for (let i = 0; i < count; i++) {
          const entry = parser.next();
          parser.next();
          const type = parser.next();
          if (isInteger(entry) && isKeyword(type, "n")) pending.push(entry);
          else if (!isKeyword(type, "f")) break;
        }
      }
      continue;
    }
    const object = readObjectAt(offset);
    if (object?.value instanceof Dict) {
      followTrailer(object.value);
      handleStream(object);
    }
  }

  // 2. Every object those sections list, and every "num gen obj" header anywhere in the file
  //    (pdf.js's repair mode matches /^(\d+)\s+(\d+)\s+obj\b/ per line; this is a superset). The
  //    lookbehind starts a match only at the first digit of a run, which keeps the regex linear.
  for (const match of text.matchAll(/(?<!\d)(\d+)\s+\d+\s+obj/g)) headers.push({ num: Number(match[1]), afterObj: match.index + match[0].length });
  let nextPending = 0;
  const drain = () => {
    while (nextPending < pending.length) {
      const object = readObjectAt(pending[nextPending++]!);
      if (object) handleStream(object);
    }
  };
  drain();
  for (const { num, afterObj } of headers) {
    const object = readObjectBody(num, afterObj);
    if (object) handleStream(object);
    drain(); // offsets listed by an xref stream found only now
  }

  // 3. Trailers pdf.js's repair mode would find.
  for (const match of text.matchAll(/trailer/g)) {
    const trailer = parserAt(bytes, match.index + "trailer".length).value();
    if (trailer instanceof Dict) trailers.push(trailer);
  }

  const activeContent = new Set<string>();
  for (const name of names) {
    // Own keys only: a PDF may well contain a name like /constructor.
    if (Object.hasOwn(ACTIVE_NAMES, name)) activeContent.add(ACTIVE_NAMES[name]!);
  }
  for (const dict of dicts) {
    const openAction = dict.get("OpenAction");
    if (openAction !== undefined) {
      const problem = openActionProblem(openAction, objects);
      if (problem) activeContent.add(`OpenAction (${problem})`);
    }
  }

  return {
    encrypted: trailers.some((trailer) => trailer.get("Encrypt") !== undefined) || names.has("Encrypt"),
    undecodable,
    activeContent: [...activeContent],
    objectCount: objects.size,
  };
}

/** The offsets of the objects an xref stream lists as stored uncompressed, or undefined if its /W is unusable. */
function xrefStreamOffsets(dict: Dict, data: Uint8Array): number[] | undefined {
  const widths = dict.get("W");
  if (!Array.isArray(widths) || widths.length !== 3 || !widths.every(isInteger)) return undefined;
  const [w1, w2, w3] = widths as [number, number, number];
  const rowLength = w1 + w2 + w3;
  if (rowLength === 0 || w2 > 8) return undefined;
  const offsets: number[] = [];
  const readField = (at: number, width: number) => {
    let value = 0;
    for (let i = 0; i < width; i++) value = value * 256 + data[at + i]!;
    return value;
  };
  for (let at = 0; at + rowLength <= data.length; at += rowLength) {
    const type = w1 === 0 ? 1 : readField(at, w1);
    if (type === 1) offsets.push(readField(at + w1, w2));
  }
  return offsets;
}

/**
 * Why an /OpenAction is active content, or undefined when it only says where to open: a
 * destination (an array like [page /FitH null], or a named one) or a plain GoTo action. Many
 * PDF libraries (jsPDF, FPDF) write `/OpenAction [3 0 R /FitH null]` into every file.
 */
function openActionProblem(value: Value, objects: Map<number, Value[]>): string | undefined {
  const candidates = value instanceof Ref ? (objects.get(value.num) ?? []) : [value];
  // An action that cannot be seen cannot be vouched for.
  if (candidates.length === 0) return "unresolved";
  for (const candidate of candidates) {
    if (Array.isArray(candidate) || candidate === STRING || candidate instanceof Name || candidate === null) continue;
    if (!(candidate instanceof Dict)) return "not a destination";
    const type = candidate.get("S");
    if (!(type instanceof Name)) return "action without a type";
    if (type.name !== "GoTo" || candidate.get("Next") !== undefined) return type.name;
  }
  return undefined;
}
