/**
 * Storefront pages kept as rendered HTML and served again with a fresh nonce: visitors' pages,
 * and per role (customer, admin) the templates signed-in users' pages are served from.
 *
 * Every page is rendered per request: the header shows who is signed in, and the CSP nonce must
 * be new for every response. For a visitor (no session cookie) the storefront pages are the
 * same for everyone, so the proxy keeps each one's HTML and, for the next visitor, swaps the
 * nonce it was rendered with for the new request's own (the nonce is random, so it occurs in the
 * HTML only where Next.js put it). Each response still carries a nonce used once; what is saved
 * is the render (about 10 ms of CPU per page, which limited the shop to ~100 pages/s).
 *
 * A signed-in user's storefront page differs from a visitor's only by role (the navigation, Add
 * to Cart) and by the user's own name, picture and cart count. So each role's page is kept too,
 * as a template rendered with nobody signed in and slots for those values, and each response
 * fills the slots with its own caller's values (./signed-in-pages.ts). No kept page holds any
 * user's data; a template is rendered only when this process's proxy asks (`templateRoleOf`).
 *
 * A page is filled by asking this same server for it with a header that bypasses the kept pages
 * (the proxy cannot see a rendered body otherwise; anyone may send the header and simply gets a
 * page rendered for them, as before); concurrent misses for a page share one fill. Only 200 HTML
 * answers without cookies are kept, at most MAX_PAGES of them and MAX_BYTES in all (the least
 * recently used go first), for PAGE_TTL_MS; a catalogue change drops them all
 * (`invalidateVisitorPages`, called with the catalogue cache's revalidation). State lives on
 * globalThis: the proxy and the app's routes are separate bundles in one process.
 */
import { parseCookie } from "cookie";
import { VIEWER_SLOT_PREFIX, VIEWER_SLOTS } from "@/lib/page-viewer";
import { KeptValues } from "@/server/cache/kept-values";
import { isSessionCookie } from "@/server/ports/cookies";

/** How many pages are kept: the storefront's pages, product pages and category tabs of a shop. */
export const MAX_PAGES = 600;
/** The kept pages' memory, at most (a page is 30–70 kB of HTML, kept as text, up to 2 bytes a character, and as bytes). */
export const MAX_BYTES = 24 * 1024 * 1024;
/** A kept page is rendered again after this long, whatever happens. */
export const PAGE_TTL_MS = 60_000;
/** Longer URLs are never kept (they are not the shop's own links). */
const MAX_URL_LENGTH = 200;
/** Marks the server's request to itself, which must be rendered. */
export const FILL_HEADER = "x-shop-page-fill";

/**
 * Who a kept page is for: visitors, or signed-in customers or admins. A signed-in role's page is
 * a template: rendered with nobody signed in, the role's navigation and buttons, and slots where
 * each response puts its own caller's name, picture and cart count (src/lib/page-viewer.ts,
 * ./signed-in-pages.ts).
 */
export type PageVariant = "visitor" | "user" | "admin";

/** What is kept: a page for one of the variants, or a public API answer (./kept-answers.ts). */
type KeptKind = PageVariant | "answer";

/** Pages a visitor sees the same as every other visitor. */
const pagePattern = /^\/(?:about|contact|products(?:\/[0-9a-fA-F-]{36})?)?$/;
/** The products page's own query parameters; a search (`q`) is not kept. */
const productsParams = new Set(["category", "sort", "page"]);

export interface StoredPage {
  status: number;
  headers: [string, string][];
  body: string;
  /** The nonce the page was rendered with; replaced by each response's own. */
  nonce: string | null;
}

interface State {
  /** Null only for a fill that may not be served, which is never kept. */
  pages: KeptValues<string, StoredPage | null>;
  /**
   * Proves a fill for a signed-in role comes from this process's own proxy: only then does the
   * page render as a template. Random per process, never leaves it.
   */
  templateSecret: string;
}

const STATE_KEY = Symbol.for("our-world-shop.kept-pages");

function state(): State {
  const global = globalThis as typeof globalThis & { [STATE_KEY]?: State };
  global[STATE_KEY] ??= {
    pages: new KeptValues({ max: MAX_PAGES, maxSize: MAX_BYTES, sizeOf, ttlMs: PAGE_TTL_MS }),
    templateSecret: crypto.randomUUID(),
  };
  return global[STATE_KEY];
}

/** The fill header's value asking for a role's template. */
function templateFill(role: Exclude<PageVariant, "visitor">): string {
  return `template ${state().templateSecret} ${role}`;
}

/**
 * The role whose template this request asks the page to render (a fill by this process's
 * proxy), or null: then the page is rendered for the request's own caller, as always.
 */
export function templateRoleOf(headers: Headers): "user" | "admin" | null {
  const [kind, secret, role] = (headers.get(FILL_HEADER) ?? "").split(" ");
  if (kind !== "template" || secret !== state().templateSecret) return null;
  return role === "user" || role === "admin" ? role : null;
}

/** Drops every kept page; a fill under way when this is called is not kept either. */
export function invalidateVisitorPages(): void {
  state().pages.clear();
}

/** The kept-page key for this request, or null where the answer may differ per caller. */
export function visitorPageKey(request: { method: string; url: string; headers: Headers }): string | null {
  return hasSessionCookie(request.headers) ? null : storefrontPageKey(request);
}

/** Whether the request carries a session cookie of any run mode. */
export function hasSessionCookie(headers: Headers): boolean {
  return Object.keys(parseCookie(headers.get("cookie") ?? "")).some(isSessionCookie);
}

/**
 * The kept-page key of a page load of a storefront page (whoever asks), or null for anything
 * else: another page, a search, a client navigation, another method, the server's own fill.
 */
export function storefrontPageKey(request: { method: string; url: string; headers: Headers }): string | null {
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

function nonceOf(policy: string | null): string | null {
  return policy?.match(/'nonce-([^']+)'/)?.[1] ?? null;
}

/** Not replayed: the transport's own, and the policy (each response gets its own). */
const unreplayed = new Set(["content-length", "content-encoding", "transfer-encoding", "connection", "keep-alive", "date", "content-security-policy"]);

async function fill(origin: string, key: string, kind: KeptKind): Promise<StoredPage> {
  const response = await fetch(new URL(key, origin), {
    headers: {
      [FILL_HEADER]: kind === "visitor" || kind === "answer" ? "1" : templateFill(kind),
      accept: kind === "answer" ? "application/json" : "text/html",
    },
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

/**
 * Whether a filled page is what was asked for: a visitor's page shows no slots; a role's
 * template shows them (else it was rendered for nobody, e.g. by another process).
 */
function isVariant(page: StoredPage, kind: KeptKind): boolean {
  if (kind === "answer") return true;
  return kind === "visitor" ? !page.body.includes(VIEWER_SLOT_PREFIX) : page.body.includes(VIEWER_SLOTS.displayName);
}

/** A cookie is one caller's; nobody else may be given it. A page another variant sees is not this one's. */
function servable(page: StoredPage, kind: KeptKind): boolean {
  return !page.headers.some(([name]) => name === "set-cookie") && isVariant(page, kind);
}

function keepable(page: StoredPage, kind: KeptKind): boolean {
  const type = page.headers.find(([name]) => name === "content-type")?.[1] ?? "";
  if (kind === "answer") return page.status === 200 && type.startsWith("application/json");
  return page.status === 200 && type.startsWith("text/html") && page.nonce !== null;
}

/** Its text (up to 2 bytes a character) and its bytes cut for replaying (`cut`). */
function sizeOf(page: StoredPage | null): number {
  return page ? 3 * page.body.length : 0;
}

/**
 * The visitors' page for `key`, kept or freshly filled, or null when it cannot be had from here
 * (then the request is rendered the usual way).
 */
export function visitorPage(key: string, origin: string): Promise<StoredPage | null> {
  return keptPage(key, origin, "visitor");
}

/**
 * The page for `key` as `variant` sees it (or the API's answer), kept or freshly filled, or null
 * when it cannot be had from here (then the request is rendered the usual way). A role's page is
 * a template, to be filled in per response (./signed-in-pages.ts).
 */
export function keptPage(pageKey: string, origin: string, variant: KeptKind): Promise<StoredPage | null> {
  const key = variant === "visitor" ? pageKey : `${variant} ${pageKey}`;
  const load = async () => {
    const page = await fill(origin, pageKey, variant);
    return servable(page, variant) ? page : null;
  };
  return state()
    .pages.fill(key, load, (page) => page !== null && keepable(page, variant))
    .catch(() => null);
}

/** A kept page's bytes cut where responses differ: before each hole, and after the last. */
interface CutPage {
  segments: Buffer[];
  /** What each hole holds in the kept page: its nonce, a viewer slot, or `</head>` (once). */
  holes: string[];
}

const cutPages = new WeakMap<StoredPage, CutPage>();

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

/**
 * The page's HTML as bytes, cut once at every place a response puts its own text: the nonce,
 * the slots for a signed-in viewer's values, the end of the head (where their data goes). A
 * response is then these bytes and its own pieces joined: no search, no copy of the text and no
 * encoding per response (replacing the nonce in the text took ~9 % of a kept page's CPU, and
 * handing the Response a string ~6 % more to check and encode it).
 */
function cut(page: StoredPage): CutPage {
  const known = cutPages.get(page);
  if (known) return known;
  const tokens = [`${VIEWER_SLOT_PREFIX}[a-z_]+?__`, "</head>", ...(page.nonce ? [escapeRegExp(page.nonce)] : [])];
  const segments: Buffer[] = [];
  const holes: string[] = [];
  let from = 0;
  let head = false;
  for (const match of page.body.matchAll(new RegExp(tokens.join("|"), "g"))) {
    if (match[0] === "</head>") {
      if (head) continue;
      head = true;
    }
    segments.push(Buffer.from(page.body.slice(from, match.index)));
    holes.push(match[0]);
    from = match.index + match[0].length;
  }
  segments.push(Buffer.from(page.body.slice(from)));
  const result = { segments, holes };
  cutPages.set(page, result);
  return result;
}

/** Whether the page has a head to end (where a signed-in response puts its viewer's data). */
export function cutAtHead(page: StoredPage): boolean {
  return cut(page).holes.includes("</head>");
}

/**
 * The kept page's body with each hole filled by `fill` (given what the hole holds in the kept
 * page); null if `fill` leaves one unfilled (answers null).
 */
export function fillHoles(page: StoredPage, fill: (hole: string) => string | null): Uint8Array<ArrayBuffer> | null {
  const { segments, holes } = cut(page);
  const parts: Uint8Array[] = [segments[0]!];
  let length = segments[0]!.length;
  for (let i = 0; i < holes.length; i++) {
    const text = fill(holes[i]!);
    if (text === null) return null;
    const bytes = Buffer.from(text);
    parts.push(bytes, segments[i + 1]!);
    length += bytes.length + segments[i + 1]!.length;
  }
  const body = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    body.set(part, at);
    at += part.length;
  }
  return body;
}

/** A kept page's headers for one response: the nonce swapped for the request's own, its policy. */
export function replayHeaders(page: StoredPage, nonce: string, policy: string, entries: [string, string][] = page.headers): Headers {
  const swap = (text: string) => (page.nonce ? text.split(page.nonce).join(nonce) : text);
  const headers = new Headers(entries.map(([name, value]): [string, string] => [name, swap(value)]));
  headers.set("content-security-policy", policy);
  return headers;
}

/** A kept page as this request's response: its nonce swapped for the request's own. */
export function replay(page: StoredPage, nonce: string, policy: string): Response {
  // The nonce is in the body's scripts and in headers too (the stylesheet's preload `link`).
  const body = fillHoles(page, (hole) => (hole === page.nonce ? nonce : hole))!;
  return new Response(body, { status: page.status, headers: replayHeaders(page, nonce, policy) });
}

/** Where this server can reach itself (set by `next start`), or null outside it. */
export function ownOrigin(): string | null {
  const port = process.env.PORT;
  return port ? `http://127.0.0.1:${port}` : null;
}
