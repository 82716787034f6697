/**
 * The kept pages and answers themselves: filled by asking this same server for them, kept in
 * this process's memory, dropped on every catalogue change.
 *
 * A page is filled by asking this server for it with FILL_HEADER, which bypasses the kept pages
 * (the proxy cannot see a rendered body otherwise; anyone may send the header and simply gets a
 * page rendered for them, as before); a role's template is asked for with the page's own
 * template request (src/server/auth/page-viewer.ts), which only this process can make.
 * Concurrent misses for a page share one fill. Only 200 answers without cookies are kept (HTML
 * with a nonce; JSON for answers), at most MAX_PAGES of them and MAX_BYTES in all (the least
 * recently used go first), for PAGE_TTL_MS, and for PAGE_STALE_MS after that a page is still
 * served at once while it is rendered again for the next request (one render, off the caller's
 * path), unless it shows what goes stale by the clock (CHANGES_BY_THE_CLOCK); a catalogue change drops them all (`dropKeptPages`,
 * called with the catalogue cache's revalidation). State lives on globalThis: the proxy and the
 * app's routes are separate bundles in one process.
 */
import { CHANGES_BY_THE_CLOCK, VIEWER_SLOT_PREFIX, VIEWER_SLOTS } from "@/lib/page-viewer";
import { templateRequest } from "@/server/auth/page-viewer";
import { KeptValues } from "@/server/cache/kept-values";
import { criticalStylesheet } from "./critical-stylesheet";
import { stylesheetOnce } from "./stylesheet-once";
import { FILL_HEADER } from "./which-requests";

/** How many pages are kept: the storefront's pages, product pages and category tabs of a shop. */
export const MAX_PAGES = 600;
/** The kept pages' memory, at most (a page is 30–70 kB of HTML, kept as text, up to 2 bytes a character, and as bytes). */
export const MAX_BYTES = 24 * 1024 * 1024;
/** A kept page is rendered again after this long, whatever happens. */
export const PAGE_TTL_MS = 60_000;
/**
 * For this long after PAGE_TTL_MS, the first request for a page gets the kept one at once while
 * it is rendered again: a page nobody asked for in a minute costs its next visitor no render
 * (80–130 ms of a server's CPU, more while it is busy). What the server hears of (the catalogue,
 * the shop's settings) drops the kept pages anyway; this is only for what it might have missed.
 */
export const PAGE_STALE_MS = 10 * 60_000;

/**
 * Who a kept page is for: visitors, or signed-in customers or admins. A signed-in role's page is
 * a template: rendered with nobody signed in, the role's navigation and buttons, and slots where
 * each response puts its own caller's name, picture and cart count (./responses.ts).
 */
export type PageVariant = "visitor" | "user" | "admin";

/** What is kept: a page for one of the variants, or a public API answer. */
export type KeptKind = PageVariant | "answer";

export interface StoredPage {
  status: number;
  headers: [string, string][];
  body: string;
  /** The nonce the page was rendered with; replaced by each response's own. */
  nonce: string | null;
  /** It shows what goes stale by the clock: never served past PAGE_TTL_MS. */
  changesByTheClock: boolean;
}

const STATE_KEY = Symbol.for("our-world-shop.kept-pages");

/** This process's kept pages and answers by key (null only for a fill that may not be served, which is never kept). */
function kept(): KeptValues<string, StoredPage | null> {
  const globalForPages = globalThis as typeof globalThis & { [STATE_KEY]?: KeptValues<string, StoredPage | null> };
  globalForPages[STATE_KEY] ??= new KeptValues({ max: MAX_PAGES, maxSize: MAX_BYTES, sizeOf, ttlMs: PAGE_TTL_MS, staleMs: PAGE_STALE_MS });
  return globalForPages[STATE_KEY];
}

/** Drops every kept page and answer; a fill under way when this is called is not kept either. */
export function dropKeptPages(): void {
  kept().clear();
}

function nonceOf(policy: string | null): string | null {
  return policy?.match(/'nonce-([^']+)'/)?.[1] ?? null;
}

/** Not replayed: the transport's own, and the policy (each response gets its own). */
const unreplayed = new Set(["content-length", "content-encoding", "transfer-encoding", "connection", "keep-alive", "date", "content-security-policy"]);

async function fill(origin: string, key: string, kind: KeptKind): Promise<StoredPage> {
  const response = await fetch(new URL(key, origin), {
    headers: {
      [FILL_HEADER]: "1",
      ...(kind === "user" || kind === "admin" ? templateRequest(kind) : {}),
      accept: kind === "answer" ? "application/json" : "text/html",
    },
    redirect: "manual",
    cache: "no-store",
  });
  const nonce = nonceOf(response.headers.get("content-security-policy"));
  const body = await response.text();
  return {
    status: response.status,
    // Nor Next's own instructions to itself (a rewrite's `x-middleware-rewrite` path, e.g. an unknown product's): replayed from the proxy they would be obeyed again.
    headers: [...response.headers].filter(([name]) => !unreplayed.has(name) && !name.startsWith("x-middleware-")),
    body: kind === "answer" ? body : await criticalStylesheet(stylesheetOnce(body), nonce),
    nonce,
    changesByTheClock: body.includes(CHANGES_BY_THE_CLOCK),
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

/** Its text (up to 2 bytes a character) and its bytes cut for replaying (./responses.ts). */
function sizeOf(page: StoredPage | null): number {
  return page ? 3 * page.body.length : 0;
}

/**
 * The page for `key` as `kind` sees it (or the API's answer), kept or freshly filled, or null
 * when it cannot be had from here (then the request is rendered the usual way). A role's page is
 * a template, to be filled in per response.
 */
export function keptPage(key: string, origin: string, kind: KeptKind): Promise<StoredPage | null> {
  const keptKey = kind === "visitor" ? key : `${kind} ${key}`;
  const load = async () => {
    const page = await fill(origin, key, kind);
    return servable(page, kind) ? page : null;
  };
  return kept()
    .fill(
      keptKey,
      load,
      (page) => page !== null && keepable(page, kind),
      (page) => page !== null && !page.changesByTheClock,
    )
    .catch(() => null);
}
