import type { PDFDocumentProxy } from "pdfjs-dist/legacy/build/pdf.mjs";
import type { PdfStructure } from "./pdf-structure";

/**
 * Decides whether a PDF may be stored as a proof of payment. South African banking apps save
 * proofs as small, plain PDFs: a page or two of text and a logo. Anything beyond that (scripts,
 * actions that run or open something, attachments, forms, media, encryption, dozens of pages)
 * is refused, because an admin opens these files on the shop's computer.
 *
 * Two readers must agree: pdf.js (the document as a viewer sees it: pages, encryption, scripts,
 * attachments, annotations) and pdf-structure.ts (every object, parsed by pdf-lib and looked at
 * by name), which catches what pdf.js's API does not report, such as a Launch action run on
 * opening.
 */

/** The most pages a proof of payment may have. */
export const MAX_PDF_PAGES = 20;

/** Why a PDF was refused; upload-messages.ts has the customer's message for each. */
export type PdfRefusal = "unreadable" | "encrypted" | "too_many_pages" | "active_content";

/** The verdict on a PDF: accepted with its page count, or refused with a reason. */
export type PdfCheck = { ok: true; pages: number } | { ok: false; reason: PdfRefusal };

// pdf.js works asynchronously between its two halves, so a stalled document can be given up on.
const TIMEOUT_MS = 15_000;

type Pdfjs = typeof import("pdfjs-dist/legacy/build/pdf.mjs");
let pdfjs: Promise<Pdfjs> | undefined;

/**
 * pdf.js, loaded on first use (it is large, and most uploads are images). Its "worker" half is
 * put on globalThis.pdfjsWorker, where pdf.js looks first: the document is then parsed in this
 * thread, with no Worker, no worker file looked up by path (which a bundled server would not
 * have), and nothing fetched.
 */
export function loadPdfjs(): Promise<Pdfjs> {
  pdfjs ??= (async () => {
    const worker = await import("pdfjs-dist/legacy/build/pdf.worker.mjs");
    // The global is pdf.js's documented hook for a main-thread worker; it has no type.
    (globalThis as { pdfjsWorker?: unknown }).pdfjsWorker = worker;
    return import("pdfjs-dist/legacy/build/pdf.mjs");
  })().catch((error: unknown) => {
    pdfjs = undefined;
    throw error;
  });
  return pdfjs;
}

/**
 * How pdf.js opens a stored or uploaded PDF here: nothing to load from anywhere (no URL, and no
 * locations for fonts, CMaps, wasm or ICC profiles, so pdf.js has nothing it could fetch or
 * read), no system or web fonts, no XFA. (`isEvalSupported` is gone from pdf.js 6: it no longer
 * compiles PDF functions to JS.)
 */
export function pdfjsOptions(bytes: Uint8Array, extra: { stopAtErrors?: boolean } = {}) {
  return {
    // pdf.js takes ownership of (detaches) the buffer it is given, and refuses a Buffer: give it
    // a plain Uint8Array copy (Buffer#slice would be a view, not a copy).
    data: new Uint8Array(bytes),
    verbosity: 0,
    useSystemFonts: false,
    disableFontFace: true,
    useWorkerFetch: false,
    useWasm: false,
    isOffscreenCanvasSupported: false,
    isImageDecoderSupported: false,
    enableXfa: false,
    disableRange: true,
    disableStream: true,
    disableAutoFetch: true,
    ...extra,
  };
}

const refuse = (reason: PdfRefusal): PdfCheck => ({ ok: false, reason });

const ascii = (bytes: Uint8Array, start: number, end: number) => Buffer.from(bytes.subarray(start, end)).toString("latin1");

/**
 * Checks the bytes of an uploaded PDF (never its name or claimed type): it must be a whole PDF
 * that pdf.js opens, unencrypted, at most MAX_PDF_PAGES pages, with no active content.
 */
export async function checkPdfProof(bytes: Uint8Array): Promise<PdfCheck> {
  // A proof is a PDF from its first byte; and a file cut off in transfer has lost its %%EOF.
  if (ascii(bytes, 0, 5) !== "%PDF-" || !ascii(bytes, Math.max(0, bytes.length - 1024), bytes.length).includes("%%EOF")) {
    return refuse("unreadable");
  }

  // Loaded on first use, like pdf.js: most uploads are images.
  const { inspectPdfStructure, PdfStructureLimitError } = await import("./pdf-structure");
  let scan: PdfStructure;
  try {
    scan = await inspectPdfStructure(bytes);
  } catch (error) {
    if (error instanceof PdfStructureLimitError) return refuse("unreadable");
    throw error;
  }
  // Refused even when pdf.js could open it with an empty password: the file is not plain, and
  // its strings and streams (object streams included) cannot be read without decrypting.
  if (scan.encrypted) return refuse("encrypted");

  const { getDocument, PasswordException } = await loadPdfjs();
  const task = getDocument(pdfjsOptions(bytes, { stopAtErrors: true }));
  let timer: NodeJS.Timeout | undefined;
  try {
    const timeout = new Promise<PdfCheck>((resolve) => {
      timer = setTimeout(() => resolve(refuse("unreadable")), TIMEOUT_MS);
    });
    const verdict = (async (): Promise<PdfCheck> => {
      let pdf: PDFDocumentProxy;
      try {
        pdf = await task.promise;
      } catch (error) {
        // A user password: pdf.js cannot open the file without it.
        const isPassword = error instanceof PasswordException || (error instanceof Error && error.name === "PasswordException");
        return refuse(isPassword ? "encrypted" : "unreadable");
      }
      return await judge(pdf, scan);
    })().catch(() => refuse("unreadable")); // pdf.js failing on some part of the document
    return await Promise.race([verdict, timeout]);
  } finally {
    clearTimeout(timer);
    await task.destroy();
  }
}

/** Fields of pdf.js's document info (typed as a bare `object` by pdf.js) that the check reads. */
interface DocumentInfo {
  EncryptFilterName?: string | null;
  IsXFAPresent?: boolean;
  IsCollectionPresent?: boolean;
}

async function judge(pdf: PDFDocumentProxy, scan: PdfStructure): Promise<PdfCheck> {
  const info = (await pdf.getMetadata()).info as DocumentInfo;
  if (info.EncryptFilterName != null || (await pdf.getPermissions()) !== null) return refuse("encrypted");
  // Active content the structure check did see outranks what it could not read: pdf-lib is
  // stricter than pdf.js, and refuses some dictionaries that pdf.js (and so the admin) reads.
  if (scan.activeContent.length > 0) return refuse("active_content");
  // A dictionary or object stream pdf-lib could not read may hide objects from the check.
  if (scan.undecodable) return refuse("unreadable");
  const pages = pdf.numPages;
  if (pages < 1) return refuse("unreadable");
  if (pages > MAX_PDF_PAGES) return refuse("too_many_pages");
  if ((await activeContentSeenByPdfjs(pdf)).length > 0) return refuse("active_content");
  return { ok: true, pages };
}

/** Annotation subtypes that play media or carry files. */
const ACTIVE_ANNOTATIONS = new Set(["FileAttachment", "Sound", "Movie", "Screen", "RichMedia", "3D"]);

/** The part of pdf.js's annotation data (typed `any` by pdf.js) that the check reads. */
interface AnnotationData {
  subtype?: unknown;
  actions?: unknown;
  attachment?: unknown;
  file?: unknown;
}

/**
 * What pdf.js's own API reports as active content in an open document: scripts, attachments,
 * XFA, portfolios, actions on opening, media and file annotations (empty when none).
 */
export async function activeContentSeenByPdfjs(pdf: PDFDocumentProxy): Promise<string[]> {
  const found: string[] = [];
  const info = (await pdf.getMetadata()).info as DocumentInfo;
  if (info.IsXFAPresent === true || pdf.isPureXfa) found.push("XFA form");
  if (info.IsCollectionPresent === true) found.push("PDF portfolio");
  if ((await pdf.getJSActions()) !== null) found.push("document JavaScript");
  if (await pdf.hasJSActions()) found.push("form field JavaScript");
  if ((await pdf.getAttachments()) !== null) found.push("embedded files");
  // A destination is fine (where to open); a named action (Print, ...) is not.
  if ((await pdf.getOpenAction())?.has("action")) found.push("OpenAction (named action)");
  for (let number = 1; number <= pdf.numPages; number++) {
    const page = await pdf.getPage(number);
    if ((await page.getJSActions()) !== null) found.push(`page ${number}: JavaScript`);
    const annotations = (await page.getAnnotations({ intent: "any" })) as AnnotationData[];
    for (const annotation of annotations) {
      const subtype = typeof annotation.subtype === "string" ? annotation.subtype : "unknown";
      if (ACTIVE_ANNOTATIONS.has(subtype)) found.push(`page ${number}: ${subtype} annotation`);
      if (annotation.actions != null && Object.keys(annotation.actions).length > 0) found.push(`page ${number}: ${subtype} annotation JavaScript`);
      if (annotation.attachment != null || annotation.file != null) found.push(`page ${number}: ${subtype} annotation file`);
    }
  }
  return found;
}
