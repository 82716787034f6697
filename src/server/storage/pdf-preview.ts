import { loadPdfjs, pdfjsOptions } from "./pdf-check";

interface NodeCanvasFactory {
  create(width: number, height: number): { canvas: { toBuffer(type: "image/png"): Buffer }; context: CanvasRenderingContext2D };
}

/** The preview's width in pixels: enough to read a bank's proof in the admin's proof modal. */
export const PDF_PREVIEW_WIDTH = 1000;

/**
 * The first page of a stored proof PDF as a PNG, drawn on the server (pdf.js with its Node
 * canvas), so an admin sees the proof as an image in the proof modal without any PDF viewer or
 * script running in the shop's pages. The PDF passed checkPdfProof when it was uploaded.
 */
export async function renderPdfFirstPage(bytes: Uint8Array, width = PDF_PREVIEW_WIDTH): Promise<Uint8Array> {
  const { getDocument } = await loadPdfjs();
  // A viewer draws the page with its fonts: font faces on (pdf.js draws them on the canvas itself).
  const task = getDocument({ ...pdfjsOptions(bytes), disableFontFace: false });
  try {
    const pdf = await task.promise;
    const page = await pdf.getPage(1);
    const unscaled = page.getViewport({ scale: 1 });
    const viewport = page.getViewport({ scale: Math.min(4, width / unscaled.width) });
    // pdf.js types its canvas factory as a bare object; in Node it hands out @napi-rs/canvas pairs.
    const factory = pdf.canvasFactory as unknown as NodeCanvasFactory;
    const { canvas, context } = factory.create(Math.ceil(viewport.width), Math.ceil(viewport.height));
    // A white page, as a viewer shows it (the PDF may leave its background transparent).
    context.fillStyle = "#ffffff";
    context.fillRect(0, 0, viewport.width, viewport.height);
    await page.render({ canvas: null, canvasContext: context, viewport }).promise;
    return new Uint8Array(canvas.toBuffer("image/png"));
  } finally {
    await task.destroy();
  }
}
