/**
 * A page load of a product that does not exist is answered as an unmatched URL: Next.js 16
 * answers `notFound()` with an empty error shell (the not-found UI exists only in the RSC
 * payload, drawn by the client: a white page without JavaScript, and on a kept page until the
 * scripts come after a first paint that never happens). An unmatched URL is rendered whole, so
 * the proxy rewrites such a request to one (vercel/next.js#62228, #98954), and the root
 * not-found page, told by NOT_FOUND_HEADER, says "Product not found." with a 404.
 */
/** Set by the proxy on a rewritten request: what was not found. Never taken from a client. */
export const NOT_FOUND_HEADER = "x-shop-not-found";

const productPage = /^\/products\/([^/]+)$/;
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The product id of a page load (not a client navigation's payload) of a product page, or null. */
export function productPageLoad(request: { method: string; url: string; headers: Headers }): string | null {
  if (request.method !== "GET" && request.method !== "HEAD") return null;
  const id = productPage.exec(new URL(request.url).pathname)?.[1];
  if (!id) return null;
  const headers = request.headers;
  if (!(headers.get("accept") ?? "").includes("text/html")) return null;
  if (headers.has("rsc") || headers.has("next-router-prefetch") || headers.has("next-router-state-tree")) return null;
  return decodeURIComponent(id);
}

/** Where the request is rewritten: a path no route matches, so Next.js renders the root not-found page in full. */
export function unmatchedPath(id: string): string {
  return `/products/${encodeURIComponent(id)}/not-found`;
}

/**
 * Whether the catalogue knows no product `id`: a malformed id at once, a well-formed one by
 * asking this server's public catalogue answer (kept for known products, so a product page
 * load costs next to nothing more). Any other answer or failure says "known": the page then
 * renders as usual.
 */
export async function isUnknownProduct(id: string, origin: string): Promise<boolean> {
  if (!uuid.test(id)) return true;
  const input = encodeURIComponent(JSON.stringify({ json: { id } }));
  try {
    const response = await fetch(`${origin}/api/trpc/catalogue.byId?input=${input}`, { headers: { accept: "application/json" }, cache: "no-store" });
    // Read to the end (a small answer): cancelling the body instead never settles in the proxy.
    await response.arrayBuffer();
    return response.status === 404;
  } catch {
    return false;
  }
}
