import type { StoragePort } from "@/server/ports/storage";
import { looksLikePdf, MAX_UPLOAD_BYTES } from "@/server/storage/image-check";
import { checkPdfProof } from "@/server/storage/pdf-check";
import { renderPdfFirstPage } from "@/server/storage/pdf-preview";

function notFound() {
  return new Response("Not found", { status: 404, headers: { "cache-control": "no-store", "x-content-type-options": "nosniff" } });
}

/**
 * A PDF proof's first page as a PNG where the storage serves its own files (Supabase mode; the
 * local modes' preview is serveStoredFile's). The bytes come through the storage port as the
 * caller, so the storage policies decide: the proof's owner and admins see it, anyone else gets
 * the same 404 as for a missing file. The Storage API also takes a customer's upload into their
 * own folder without the shop's checks, so the PDF is checked again before pdf.js draws it.
 */
export async function servePdfPreview(storage: Pick<StoragePort, "read">, bucket: string, segments: string[]): Promise<Response> {
  // Only proofs have previews; a dot segment would let the Storage API's URL climb out of the bucket.
  if (bucket !== "payments" || segments.length === 0 || segments.some((segment) => segment === "" || segment === "." || segment === "..")) {
    return notFound();
  }
  const bytes = await storage.read({ bucket, path: segments.join("/") });
  if (!bytes || bytes.length > MAX_UPLOAD_BYTES || !looksLikePdf(bytes)) return notFound();
  if (!(await checkPdfProof(bytes)).ok) return notFound();
  const png = await renderPdfFirstPage(bytes);
  return new Response(Buffer.from(png), {
    headers: {
      "content-type": "image/png",
      "x-content-type-options": "nosniff",
      "content-security-policy": "default-src 'none'; sandbox",
      "cache-control": "private, no-store",
    },
  });
}
