/**
 * Visitors' storefront pages, kept as rendered HTML and served again with a fresh nonce.
 *
 * Every page is rendered per request: the header shows who is signed in, and the CSP nonce must
 * be new for every response. For a visitor (no session cookie) the storefront pages are the
 * same for everyone, so the proxy keeps each one's HTML and, for the next visitor, swaps the
 * nonce it was rendered with for the new request's own (the nonce is random, so it occurs in the
 * HTML only where Next.js put it). Each response still carries a nonce used once; what is saved
 * is the render (about 10 ms of CPU per page, which limited the shop to ~100 pages/s).
 *
 * A page is filled by asking this same server for it with a header that bypasses the kept pages
 * (the proxy cannot see a rendered body otherwise; anyone may send the header and simply gets a
 * page rendered for them, as before); concurrent misses for a page share one fill. Only 200 HTML
 * answers without cookies are kept, at most MAX_PAGES of them and MAX_BYTES in all (the least
 * recently used go first), for PAGE_TTL_MS; a catalogue change drops them all
 * (`invalidateVisitorPages`, called with the catalogue cache's revalidation). State lives on globalThis: the proxy and the app's routes are
 * separate bundles in one process.
 */
import { parseCookie } from "cookie";
import { isSessionCookie } from "@/server/ports/cookies";

/** How many pages are kept: the storefront's pages, product pages and category tabs of a shop. */
export const MAX_PAGES = 600;
/** The kept pages' memory, at most (a page is 30–70 kB of HTML; a string takes up to 2 bytes a character). */
export const MAX_BYTES = 24 * 1024 * 1024;
/** A kept page is rendered again after this long, whatever happens. */
export const PAGE_TTL_MS = 60_000;
/** Longer URLs are never kept (they are not the shop's own links). */
const MAX_URL_LENGTH = 200;
/** Marks the server's request to itself, which must be rendered. */
export const FILL_HEADER = "x-shop-page-fill";

/** Pages a visitor sees the same as every other visitor. */
const pagePattern = /^\/(?:about|contact|products(?:\/[0-9a-fA-F-]{36})?)?$/;
/** The products page's own query parameters; a search (`q`) is not kept. */
const productsParams = new Set(["category", "sort", "page"]);

interface StoredPage {
  status: number;
  headers: [string, string][];
  body: string;
  /** The nonce the page was rendered with; replaced by each response's own. */
  nonce: string | null;
}

interface Kept {
  page: StoredPage;
  generation: number;
  storedAt: number;
}

interface State {
  generation: number;
  pages: Map<string, Kept>;
  /** What the kept pages take, by MAX_BYTES's measure. */
  bytes: number;
  filling: Map<string, Promise<StoredPage | null>>;
}

const STATE_KEY = Symbol.for("our-world-shop.visitor-pages");

function state(): State {
  const global = globalThis as typeof globalThis & { [STATE_KEY]?: State };
  global[STATE_KEY] ??= { generation: 0, pages: new Map(), bytes: 0, filling: new Map() };
  return global[STATE_KEY];
}

/** Drops every kept page; a fill under way when this is called is not kept either. */
export function invalidateVisitorPages(): void {
  const current = state();
  current.generation++;
  current.pages.clear();
  current.bytes = 0;
}

/** The kept-page key for this request, or null where the answer may differ per caller. */
export function visitorPageKey(request: { method: string; url: string; headers: Headers }): string | null {
  if (request.method !== "GET") return null;
  const url = new URL(request.url);
  if (!pagePattern.test(url.pathname) || url.pathname.length + url.search.length > MAX_URL_LENGTH) return null;
  for (const name of url.searchParams.keys()) {
    if (url.pathname !== "/products" || !productsParams.has(name)) return null;
  }
  const headers = request.headers;
  if (headers.has(FILL_HEADER)) return null;
  // Only a page load: client navigations and prefetches fetch the RSC payload of the same URL,
  // and Next.js hides their `RSC` header and `_rsc` parameter from the proxy, but not that they
  // are fetches (`Sec-Fetch-Dest: empty`, `Accept: */*`) where a page load asks for HTML.
  if (!(headers.get("accept") ?? "").includes("text/html")) return null;
  const destination = headers.get("sec-fetch-dest");
  if (destination !== null && destination !== "document") return null;
  if (headers.has("rsc") || headers.has("next-router-prefetch") || headers.has("next-router-state-tree")) return null;
  const cookies = Object.keys(parseCookie(headers.get("cookie") ?? ""));
  if (cookies.some(isSessionCookie)) return null;
  return `${url.pathname}${url.search}`;
}

function nonceOf(policy: string | null): string | null {
  return policy?.match(/'nonce-([^']+)'/)?.[1] ?? null;
}

/** Not replayed: the transport's own, and the policy (each response gets its own). */
const unreplayed = new Set(["content-length", "content-encoding", "transfer-encoding", "connection", "keep-alive", "date", "content-security-policy"]);

async function fill(origin: string, key: string): Promise<StoredPage> {
  const response = await fetch(new URL(key, origin), {
    headers: { [FILL_HEADER]: "1", accept: "text/html" },
    redirect: "manual",
    cache: "no-store",
  });
  const body = await response.text();
  return {
    status: response.status,
    headers: [...response.headers].filter(([name]) => !unreplayed.has(name)),
    body,
    nonce: nonceOf(response.headers.get("content-security-policy")),
  };
}

function keepable(page: StoredPage): boolean {
  const type = page.headers.find(([name]) => name === "content-type")?.[1] ?? "";
  return page.status === 200 && type.startsWith("text/html") && page.nonce !== null;
}

function sizeOf(page: StoredPage): number {
  return 2 * page.body.length;
}

function forget(current: State, key: string): void {
  const kept = current.pages.get(key);
  if (!kept) return;
  current.pages.delete(key);
  current.bytes -= sizeOf(kept.page);
}

/**
 * The page for `key`, kept or freshly filled, or null when it cannot be had from here (then the
 * request is rendered the usual way).
 */
export async function visitorPage(key: string, origin: string): Promise<StoredPage | null> {
  const current = state();
  const kept = current.pages.get(key);
  if (kept && kept.generation === current.generation && Date.now() - kept.storedAt < PAGE_TTL_MS) {
    // Most recently used last: the oldest is the first dropped.
    current.pages.delete(key);
    current.pages.set(key, kept);
    return kept.page;
  }
  const generation = current.generation;
  const fillKey = `${generation}:${key}`;
  let pending = current.filling.get(fillKey);
  if (!pending) {
    pending = fill(origin, key)
      .then((page) => {
        // A cookie is one caller's; nobody else may be given it.
        if (page.headers.some(([name]) => name === "set-cookie")) return null;
        if (keepable(page) && current.generation === generation) {
          forget(current, key);
          current.pages.set(key, { page, generation, storedAt: Date.now() });
          current.bytes += sizeOf(page);
          while (current.pages.size > MAX_PAGES || current.bytes > MAX_BYTES) forget(current, current.pages.keys().next().value!);
        }
        return page;
      })
      .catch(() => null)
      .finally(() => current.filling.delete(fillKey));
    current.filling.set(fillKey, pending);
  }
  return pending;
}

/** A kept page as this request's response: its nonce swapped for the request's own. */
export function replay(page: StoredPage, nonce: string, policy: string): Response {
  const swap = (text: string) => (page.nonce ? text.split(page.nonce).join(nonce) : text);
  // The nonce is in the body's scripts and in headers too (the stylesheet's preload `link`).
  const headers = new Headers(page.headers.map(([name, value]): [string, string] => [name, swap(value)]));
  headers.set("content-security-policy", policy);
  return new Response(swap(page.body), { status: page.status, headers });
}

/** Where this server can reach itself (set by `next start`), or null outside it. */
export function ownOrigin(): string | null {
  const port = process.env.PORT;
  return port ? `http://127.0.0.1:${port}` : null;
}
