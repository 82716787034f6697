/**
 * Property-based fuzzing of the PDF proof check (fast-check, fixed seed) on real PDFs, written by
 * this repo's builder and by pdf-lib's writer: (a) whatever bytes are flipped, cut, copied or
 * inserted, checkPdfProof comes back with a verdict within its time limits and never throws, and
 * a PDF whose active-content objects survive is never accepted; (b) active content injected in
 * many shapes (name trees, actions, annotations, attachments, media, forms), plain, packed into an
 * object stream or appended as an incremental update, with names spelled with #xx escapes and
 * tokens separated by odd whitespace and comments, is never accepted.
 * PDF_FUZZ_RUNS sets the runs per property (500 in `npm test`, 2000 in CI: `npm run test:fuzz`), PDF_FUZZ_SEED the seed.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkPdfProof, type PdfCheck } from "@/server/storage/pdf-check";
import { inspectPdfStructure, PdfStructureLimitError } from "@/server/storage/pdf-structure";
import { appendUpdate, firstExtraObject, makeLibraryPdf, makeProofPdf, type PdfObject } from "../helpers/pdfs";

const RUNS = Number(process.env.PDF_FUZZ_RUNS ?? 500);
const SEED = Number(process.env.PDF_FUZZ_SEED ?? 20_240_314);
const TIME_LIMIT = 10 * 60_000;
// The structure check (10 s) and pdf.js (15 s) each give up on their own; a verdict takes no longer.
const MAX_VERDICT_MS = 25_000 + 5_000;

const latin1 = (text: string) => Buffer.from(text, "latin1");
const REASONS = new Set(["unreadable", "encrypted", "too_many_pages", "active_content"]);

/** checkPdfProof, timed; the test fails (rather than hangs) if a verdict never comes. */
async function verdictOf(pdf: Buffer): Promise<PdfCheck> {
  const started = Date.now();
  const verdict = await checkPdfProof(new Uint8Array(pdf));
  expect(Date.now() - started).toBeLessThan(MAX_VERDICT_MS);
  expect(verdict.ok ? verdict.pages >= 1 : REASONS.has(verdict.reason)).toBe(true);
  return verdict;
}

/**
 * What the structure check alone reports: pdf.js's API catches scripts on its own, so only this
 * shows that the second reader sees active content too (a limit reached counts as a refusal).
 */
async function structureRefuses(pdf: Buffer): Promise<boolean> {
  try {
    return (await inspectPdfStructure(pdf)).activeContent.length > 0;
  } catch (error) {
    if (error instanceof PdfStructureLimitError) return true;
    throw error;
  }
}

// --- Mutations ----------------------------------------------------------------------------------

/** Bytes that mean something to a PDF parser, to insert where they confuse it most. */
const PDF_TOKENS = [
  "<<", ">>", "[", "]", "(", ")", "\\", "/", "%", "#", "R", " obj ", "endobj", "stream\n", "\nendstream", "xref", "trailer", "startxref",
  "%%EOF", "0 0 R", "1 0 obj", "99999999999", "-1", "\n", "\r", "\0", "/Type /ObjStm /N 1 /First 0", "/Length 0", "/Filter /FlateDecode", "/Prev 0",
].map(latin1);

type Mutation =
  | { kind: "flip"; at: number; mask: number }
  | { kind: "truncate"; at: number }
  | { kind: "delete"; at: number; length: number }
  | { kind: "insert"; at: number; bytes: Uint8Array }
  | { kind: "duplicate"; from: number; length: number; to: number }
  | { kind: "splice"; from: number; length: number; to: number };

const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant("flip" as const), at: fc.nat(), mask: fc.integer({ min: 1, max: 255 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("truncate" as const), at: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("delete" as const), at: fc.nat(), length: fc.integer({ min: 1, max: 64 }) }) },
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant("insert" as const), at: fc.nat(), bytes: fc.oneof(fc.uint8Array({ minLength: 1, maxLength: 24 }), fc.constantFrom(...PDF_TOKENS)) }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("duplicate" as const), from: fc.nat(), length: fc.integer({ min: 1, max: 400 }), to: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("splice" as const), from: fc.nat(), length: fc.integer({ min: 1, max: 200 }), to: fc.nat() }) },
);

function mutate(bytes: Buffer, m: Mutation): Buffer {
  const at = (n: number) => (bytes.length === 0 ? 0 : n % (bytes.length + 1));
  switch (m.kind) {
    case "flip": {
      if (bytes.length === 0) return bytes;
      const out = Buffer.from(bytes);
      const i = m.at % bytes.length;
      out[i] = out[i]! ^ m.mask;
      return out;
    }
    case "truncate":
      return bytes.subarray(0, at(m.at));
    case "delete":
      return Buffer.concat([bytes.subarray(0, at(m.at)), bytes.subarray(at(m.at) + m.length)]);
    case "insert":
      return Buffer.concat([bytes.subarray(0, at(m.at)), m.bytes, bytes.subarray(at(m.at))]);
    case "duplicate": {
      const chunk = bytes.subarray(at(m.from), at(m.from) + m.length);
      return Buffer.concat([bytes.subarray(0, at(m.to)), chunk, bytes.subarray(at(m.to))]);
    }
    case "splice": {
      // Overwrites bytes at `to` with bytes from `from`, keeping the length.
      const chunk = Buffer.from(bytes.subarray(at(m.from), at(m.from) + m.length));
      const out = Buffer.from(bytes);
      chunk.copy(out, at(m.to));
      return out.subarray(0, bytes.length);
    }
  }
}

/** Applies mutations only outside `keep` (before it or after it), so what lies inside survives. */
function mutateAround(pdf: Buffer, keep: [number, number], mutations: { after: boolean; mutation: Mutation }[]): Buffer {
  let before = pdf.subarray(0, keep[0]);
  let after = pdf.subarray(keep[1]);
  for (const { after: isAfter, mutation } of mutations) {
    if (isAfter) after = mutate(after, mutation);
    else before = mutate(before, mutation);
  }
  return Buffer.concat([before, pdf.subarray(...keep), after]);
}

// --- Active content, in many shapes --------------------------------------------------------------

/** Active content to inject: catalog and first-page entries, and objects numbered from `first`. */
interface Shape {
  name: string;
  catalog?: (first: number) => string;
  firstPage?: (first: number) => string;
  objects: (first: number) => PdfObject[];
  /** Whether a refused name sits in `objects` (not only in the catalog or page that point at them). */
  namedInObjects: boolean;
}

const XFA_PACKET = '<xdp:xdp xmlns:xdp="http://ns.adobe.com/xdp/"><template><subform name="f"/></template></xdp:xdp>';
const annotation = (body: string) => `<< /Type /Annot /Rect [0 0 200 50] ${body} >>`;
const annotated = (name: string, body: string, ...more: PdfObject[]): Shape => ({
  name,
  firstPage: (f) => `/Annots [${f} 0 R]`,
  objects: () => [annotation(body), ...more],
  namedInObjects: true,
});

const SHAPES: Shape[] = [
  {
    name: "a document JavaScript name tree",
    catalog: (f) => `/Names << /JavaScript ${f} 0 R >>`,
    objects: (f) => [`<< /Names [(init) ${f + 1} 0 R] >>`, "<< /S /JavaScript /JS (app.alert\\(1\\)) >>"],
    namedInObjects: true,
  },
  { name: "JavaScript on opening", catalog: (f) => `/OpenAction ${f} 0 R`, objects: () => ["<< /S /JavaScript /JS (app.alert\\(1\\)) >>"], namedInObjects: true },
  { name: "a Launch on opening", catalog: (f) => `/OpenAction ${f} 0 R`, objects: () => ["<< /S /Launch /F (cmd.exe) /Win << /F (cmd.exe) /P (/c calc) >> >>"], namedInObjects: true },
  { name: "document /AA", catalog: (f) => `/AA ${f} 0 R`, objects: () => ["<< /WC << /S /JavaScript /JS (app.alert\\(2\\)) >> >>"], namedInObjects: true },
  { name: "a page /AA Launch", firstPage: (f) => `/AA << /O ${f} 0 R >>`, objects: () => ["<< /S /Launch /F (calc.exe) >>"], namedInObjects: true },
  ...["JavaScript /JS (this.print\\(\\))", "Launch /F (payload.exe)", "SubmitForm /F (collect)", "ImportData /F (data.fdf)", "GoToR /F (other.pdf) /D [0 /Fit]", "GoToE /T << /R /C /N (x) >>", "Rendition /R 9 0 R"].map((action) =>
    annotated(`a link running ${action.split(" ")[0]}`, `/Subtype /Link /A << /S /${action} >>`),
  ),
  {
    name: "JavaScript in a form field",
    catalog: (f) => `/AcroForm << /Fields [${f} 0 R] >>`,
    firstPage: (f) => `/Annots [${f} 0 R]`,
    objects: () => [annotation("/Subtype /Widget /FT /Tx /T (amount) /AA << /K << /S /JavaScript /JS (AFNumber_Keystroke\\(2\\)) >> >>")],
    namedInObjects: true,
  },
  {
    name: "an embedded file",
    catalog: (f) => `/Names << /EmbeddedFiles ${f} 0 R >>`,
    objects: (f) => [`<< /Names [(invoice.exe) ${f + 1} 0 R] >>`, `<< /Type /Filespec /F (invoice.exe) /EF << /F ${f + 2} 0 R >> >>`, { dict: "/Type /EmbeddedFile", stream: "MZ not a program" }],
    namedInObjects: true,
  },
  {
    name: "a file attachment",
    firstPage: (f) => `/Annots [${f} 0 R]`,
    objects: (f) => [annotation(`/Subtype /FileAttachment /FS ${f + 1} 0 R`), `<< /Type /Filespec /F (r.js) /EF << /F ${f + 2} 0 R >> >>`, { dict: "/Type /EmbeddedFile", stream: "WScript.Echo(1)" }],
    namedInObjects: true,
  },
  ...["RichMedia", "Movie", "Sound", "Screen", "3D"].map((subtype) => annotated(`a ${subtype} annotation`, `/Subtype /${subtype}`)),
  { name: "an XFA form", catalog: (f) => `/AcroForm << /Fields [] /XFA ${f} 0 R >>`, objects: () => [{ dict: "", stream: XFA_PACKET }], namedInObjects: false },
  { name: "a portfolio", catalog: (f) => `/Collection ${f} 0 R`, objects: () => ["<< /Type /Collection /View /T >>"], namedInObjects: true },
  // Refused by what /OpenAction points at, not by a name: only when the catalog is intact.
  { name: "a named action on opening", catalog: (f) => `/OpenAction ${f} 0 R`, objects: () => ["<< /S /Named /N /Print >>"], namedInObjects: false },
  { name: "a GoTo chaining another action", catalog: (f) => `/OpenAction ${f} 0 R`, objects: () => ["<< /S /GoTo /D [5 0 R /Fit] /Next << /S /URI /URI (x) >> >>"], namedInObjects: false },
  { name: "a web address opened on opening", catalog: () => "/OpenAction << /S /URI /URI (https:tracker) >>", objects: () => [], namedInObjects: false },
];

/** How the injected text is written: which name letters become #xx, and what separates tokens. */
interface Spelling {
  escape: boolean[];
  separators: string[];
}

const SEPARATORS = [" ", "\n", "\r\n", "\t", "\f", "   ", " %note\n", "\0", "\r"];
const spellingArb: fc.Arbitrary<Spelling> = fc.record({
  escape: fc.array(fc.boolean(), { minLength: 1, maxLength: 12 }),
  separators: fc.array(fc.constantFrom(...SEPARATORS), { minLength: 1, maxLength: 6 }),
});

/** Rewrites names (never the inside of strings) with #xx escapes, and the spaces between tokens. */
function spell(text: string, spelling: Spelling): string {
  let letter = 0;
  let space = 0;
  return text.replace(/\((?:\\.|[^\\()])*\)|\/[A-Za-z0-9]+| /g, (token) => {
    if (token === " ") return spelling.separators[space++ % spelling.separators.length]!;
    if (!token.startsWith("/")) return token;
    return `/${[...token.slice(1)].map((c) => (spelling.escape[letter++ % spelling.escape.length] ? `#${c.charCodeAt(0).toString(16)}` : c)).join("")}`;
  });
}

const spellObject = (object: PdfObject, spelling: Spelling): PdfObject =>
  typeof object === "string" ? spell(object, spelling) : { ...object, dict: spell(object.dict, spelling) };

type Placement = "plain" | "object stream" | "incremental update";

interface ActivePdf {
  pdf: Buffer;
  /** The bytes holding the injected objects: the objects themselves, their object stream, or the update. */
  keep: [number, number];
}

/** The first page's dictionary as makeProofPdf writes it (for a page replaced by an update). */
const firstPageDict = (extra: string) =>
  `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R >> >> /Contents 6 0 R ${extra} >>`;

function injected(shape: Shape, placement: Placement, spelling: Spelling, base: { pages: number; logo: boolean; packed: boolean }): ActivePdf {
  const say = (text: string) => spell(text, spelling);
  if (placement === "incremental update") {
    const original = makeProofPdf({ pages: base.pages, logo: base.logo, objectStream: base.packed ? "all" : undefined });
    const first = Math.max(...[...original.toString("latin1").matchAll(/\/Size (\d+)/g)].map((m) => Number(m[1])));
    const objects: Record<number, PdfObject> = { 1: say(`<< /Type /Catalog /Pages 2 0 R ${shape.catalog?.(first) ?? ""} >>`) };
    if (shape.firstPage) objects[5] = say(firstPageDict(shape.firstPage(first)));
    shape.objects(first).forEach((object, i) => (objects[first + i] = spellObject(object, spelling)));
    return { pdf: appendUpdate(original, objects), keep: [original.length, Infinity] };
  }
  const first = firstExtraObject(base);
  const pdf = makeProofPdf({
    pages: base.pages,
    logo: base.logo,
    catalog: say(shape.catalog?.(first) ?? ""),
    firstPage: say(shape.firstPage?.(first) ?? ""),
    extra: () => shape.objects(first).map((object) => spellObject(object, spelling)),
    objectStream: placement === "object stream" ? "all" : undefined,
  });
  const text = pdf.toString("latin1");
  if (placement === "object stream") {
    const start = /\n\d+ 0 obj\n<< \/Type \/ObjStm/.exec(text)!.index + 1;
    return { pdf, keep: [start, text.indexOf("endobj", start) + "endobj".length] };
  }
  // The injected objects come last, right before the cross-reference table.
  const start = text.indexOf(`\n${first} 0 obj\n`) + 1;
  return { pdf, keep: start > 0 ? [start, text.indexOf("\nxref\n", start)] : [0, 0] };
}

const injectionArb = fc.record({
  shape: fc.constantFrom(...SHAPES),
  placement: fc.constantFrom<Placement>("plain", "object stream", "incremental update"),
  spelling: spellingArb,
  base: fc.record({ pages: fc.integer({ min: 1, max: 3 }), logo: fc.boolean(), packed: fc.boolean() }),
});

// --- The properties ------------------------------------------------------------------------------

const bases: { name: string; pdf: Buffer }[] = [];

/**
 * pdf.js (6.5) prefetches the top-level page-tree kids while looking for a page and never awaits
 * the fetches it no longer needs: on a broken page tree, that rejection is unhandled in this
 * process, where pdf.js's worker half runs. Next.js's server logs such rejections instead of
 * exiting; this file keeps them the same way, and fails on any that is not a pdf.js exception.
 */
const PDFJS_EXCEPTIONS = new Set(["XRefEntryException", "XRefParseException", "FormatError", "ParserEOFException", "UnknownErrorException", "InvalidPDFException"]);
const unhandled: unknown[] = [];
let testRunnerListeners: NodeJS.UnhandledRejectionListener[] = [];
const keepUnhandled: NodeJS.UnhandledRejectionListener = (reason) => void unhandled.push(reason);

beforeAll(() => {
  testRunnerListeners = process.listeners("unhandledRejection");
  process.removeAllListeners("unhandledRejection");
  process.on("unhandledRejection", keepUnhandled);
});

afterAll(async () => {
  // Node reports unhandled rejections between event-loop turns, which the checks above (all
  // promises) may not have reached yet: give it some.
  await new Promise((resolve) => setTimeout(resolve, 100));
  process.off("unhandledRejection", keepUnhandled);
  for (const listener of testRunnerListeners) process.on("unhandledRejection", listener);
  const names = unhandled.map((reason) => (reason instanceof Error ? reason.name : typeof reason));
  expect(names.filter((name) => !PDFJS_EXCEPTIONS.has(name))).toEqual([]);
});

beforeAll(async () => {
  bases.push(
    { name: "one text page", pdf: makeProofPdf() },
    { name: "three pages", pdf: makeProofPdf({ pages: 3 }) },
    { name: "a logo image", pdf: makeProofPdf({ logo: true }) },
    { name: "object and xref streams", pdf: makeProofPdf({ objectStream: "all", pages: 2, logo: true }) },
    { name: "a later update", pdf: appendUpdate(makeProofPdf(), { 4: "<< /Title (Proof of payment, corrected) /Producer (Test Bank App) >>" }) },
    { name: "pdf-lib's writer, object streams, image", pdf: await makeLibraryPdf({ pages: 2, image: true }) },
    { name: "pdf-lib's writer, classic xref", pdf: await makeLibraryPdf({ objectStreams: false }) },
  );
});

describe("PDF proof check under fuzzing", () => {
  it("accepts every unmutated base, so a refusal below comes from the mutation", async () => {
    for (const base of bases) expect({ base: base.name, verdict: await checkPdfProof(base.pdf) }).toMatchObject({ verdict: { ok: true } });
  });

  it(
    "(a) always reaches a verdict in time on mutated real PDFs, and never throws",
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.nat(), fc.array(mutationArb, { minLength: 1, maxLength: 6 }), async (which, mutations) => {
          await verdictOf(mutations.reduce(mutate, bases[which % bases.length]!.pdf));
        }),
        { seed: SEED, numRuns: RUNS },
      );
    },
    TIME_LIMIT,
  );

  it(
    "(a) never accepts a mutated PDF whose active-content objects survived the mutation",
    async () => {
      const survivable = injectionArb.filter(({ shape }) => shape.namedInObjects);
      await fc.assert(
        fc.asyncProperty(survivable, fc.array(fc.record({ after: fc.boolean(), mutation: mutationArb }), { minLength: 1, maxLength: 6 }), async (injection, mutations) => {
          const { pdf, keep } = injected(injection.shape, injection.placement, injection.spelling, injection.base);
          const mutated = mutateAround(pdf, [keep[0], Math.min(keep[1], pdf.length)], mutations);
          expect((await verdictOf(mutated)).ok).toBe(false);
          expect(await structureRefuses(mutated)).toBe(true);
        }),
        { seed: SEED + 1, numRuns: RUNS },
      );
    },
    TIME_LIMIT,
  );

  it(
    "(b) never accepts injected active content, however it is packed or spelled",
    async () => {
      await fc.assert(
        fc.asyncProperty(injectionArb, async ({ shape, placement, spelling, base }) => {
          const { pdf } = injected(shape, placement, spelling, base);
          expect(await verdictOf(pdf)).toEqual({ ok: false, reason: "active_content" });
          expect(await structureRefuses(pdf)).toBe(true);
        }),
        { seed: SEED + 2, numRuns: RUNS },
      );
    },
    TIME_LIMIT,
  );

  it("(b) covers every shape in every placement at least once, spelled plainly and escaped", async () => {
    const plain: Spelling = { escape: [false], separators: [" "] };
    const escaped: Spelling = { escape: [true, false], separators: [" %c\n", "\r\n"] };
    for (const shape of SHAPES) {
      for (const placement of ["plain", "object stream", "incremental update"] as const) {
        for (const spelling of [plain, escaped]) {
          const { pdf } = injected(shape, placement, spelling, { pages: 1, logo: false, packed: placement === "object stream" });
          expect({ shape: shape.name, placement, verdict: await checkPdfProof(pdf), structure: await structureRefuses(pdf) }).toMatchObject({
            verdict: { ok: false, reason: "active_content" },
            structure: true,
          });
        }
      }
    }
  }, TIME_LIMIT);
});
