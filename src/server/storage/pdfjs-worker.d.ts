// pdfjs-dist ships no types for its worker module; pdf-check.ts only hands it to pdf.js, which
// looks for it on globalThis.pdfjsWorker and then runs the parser in the calling thread.
declare module "pdfjs-dist/legacy/build/pdf.worker.mjs" {
  export const WorkerMessageHandler: unknown;
}
