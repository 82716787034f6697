/**
 * Which requests are answered from kept pages, and under which key: a page load of a storefront
 * page (a visitor's, or a signed-in caller's from their role's template) or a catalogue query
 * of a caller without a session. Anything else, and the server's own fills, is rendered.
 */
import { parseCookie } from "cookie";
import { isSessionCookie } from "@/server/ports/cookies";

/** Marks the server's request to itself, which must be rendered. */
export const FILL_HEADER = "x-shop-page-fill";

/** What this module looks at: the parts of a request a proxy and a test both have. */
export interface RequestLine {
  method: string;
  url: string;
  headers: Headers;
}

/** Longer URLs are never kept (they are not the shop's own links). */
const MAX_URL_LENGTH = 200;
/** Pages a visitor sees the same as every other visitor. */
const pagePattern = /^\/(?:about|contact|products(?:\/[0-9a-fA-F-]{36})?)?$/;
/** The products page's own query parameters; a search (`q`) is not kept. */
const productsParams = new Set(["category", "sort", "page"]);

/** Whether the request carries a session cookie of any run mode. */
export function hasSessionCookie(headers: Headers): boolean {
  return Object.keys(parseCookie(headers.get("cookie") ?? "")).some(isSessionCookie);
}

/** The kept-page key for this request, or null where the answer may differ per caller. */
export function visitorPageKey(request: RequestLine): string | null {
  return hasSessionCookie(request.headers) ? null : storefrontPageKey(request);
}

/** The kept-page key of a signed-in caller's page load, or null where the page is rendered. */
export function signedInPageKey(request: RequestLine): string | null {
  return hasSessionCookie(request.headers) ? storefrontPageKey(request) : null;
}

/**
 * Whether the browser may keep this response for Back and Forward (its back/forward cache): a
 * visitor's storefront page, loaded or fetched by a client navigation. No session cookie went
 * with the request, so nothing in the answer is anyone's own (a page the server renders for a
 * visitor shows nobody's name, cart or orders); every other page stays `no-store` and is never
 * kept, and signing out clears what the browser kept of the shop (src/server/security/page-caching.ts).
 */
export function backForwardKeepable(request: RequestLine): boolean {
  if (request.method !== "GET" || hasSessionCookie(request.headers) || request.headers.has(FILL_HEADER)) return false;
  return pagePattern.test(new URL(request.url).pathname);
}

/**
 * The kept-page key of a page load of a storefront page (whoever asks), or null for anything
 * else: another page, a search, a client navigation, another method, the server's own fill.
 */
function storefrontPageKey(request: RequestLine): string | null {
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
  return `${url.pathname}${url.search}`;
}

const CATALOGUE_QUERIES = new Set(["catalogue.list", "catalogue.categories", "catalogue.byId", "catalogue.related"]);
const API_PREFIX = "/api/trpc/";
/** Longer URLs are not the shop's own calls. */
const MAX_API_URL_LENGTH = 500;

/**
 * The kept-answer key of this request, or null where it is answered as usual. `GET
 * /api/trpc/catalogue.list?input=…` is the same for every caller (the procedures read the shared
 * catalogue as `anon`): only callers without a session (a signed-in caller's answer may renew
 * their cookie), only the catalogue's queries (never a batch with anything else), never a search
 * (the catalogue does not cache those either).
 */
export function keptAnswerKey(request: RequestLine): string | null {
  if (request.method !== "GET" || request.headers.has(FILL_HEADER) || hasSessionCookie(request.headers)) return null;
  const url = new URL(request.url);
  if (!url.pathname.startsWith(API_PREFIX) || url.pathname.length + url.search.length > MAX_API_URL_LENGTH) return null;
  const procedures = decodeURIComponent(url.pathname.slice(API_PREFIX.length)).split(",");
  if (!procedures.every((procedure) => CATALOGUE_QUERIES.has(procedure))) return null;
  for (const name of url.searchParams.keys()) if (name !== "input" && name !== "batch") return null;
  if (searches(url.searchParams.get("input"))) return null;
  return `${url.pathname}${url.search}`;
}

/** Whether any input of the call (one, or a batch's) is a search. */
function searches(input: string | null): boolean {
  if (input === null) return false;
  try {
    const parsed = JSON.parse(input) as unknown;
    const inputs = typeof parsed === "object" && parsed !== null && !("json" in parsed) ? Object.values(parsed) : [parsed];
    return inputs.some((each) => {
      const json = typeof each === "object" && each !== null && "json" in each ? (each as { json: unknown }).json : undefined;
      return typeof json === "object" && json !== null && "search" in json && Boolean((json as { search: unknown }).search);
    });
  } catch {
    // Not an input tRPC can read: it answers 400 itself, which is not kept.
    return false;
  }
}
