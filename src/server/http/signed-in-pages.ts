/**
 * Signed-in users' storefront pages, served from their role's kept template (./visitor-pages.ts)
 * with the caller's own name, picture and cart count put in the template's slots per response
 * (src/lib/page-viewer.ts).
 *
 * Who is signed in is told by the platform, which lives in the app's bundle (the proxy must not
 * load the database): it hands the proxy a function on globalThis once it has started
 * (`provideSignedInViewers`). Until then, and wherever it cannot tell cheaply (Supabase mode, a
 * session it does not know, an error), the page is rendered for the caller as before: never
 * served from a template without the caller's own values.
 */
import { cartBadgeDisplay, VIEWER_DATA_ID, VIEWER_SLOT_PREFIX, VIEWER_SLOTS, type PageViewerData } from "@/lib/page-viewer";
import { cutAtHead, fillHoles, hasSessionCookie, keptPage, replayHeaders, storefrontPageKey, type StoredPage } from "./visitor-pages";

/** A signed-in caller as a page shows them: their role picks the template, their values fill it. */
export interface SignedInViewer {
  role: "user" | "admin";
  data: PageViewerData;
}

/** Who is signed in, from a page load's Cookie header; null where that cannot be told here. */
export type SignedInViewers = (cookieHeader: string) => Promise<SignedInViewer | null>;

const SOURCE_KEY = Symbol.for("our-world-shop.signed-in-viewers");
const global = globalThis as typeof globalThis & { [SOURCE_KEY]?: SignedInViewers };

/** The platform's way of telling who is signed in (called once it has started). */
export function provideSignedInViewers(source: SignedInViewers): void {
  global[SOURCE_KEY] = source;
}

/** The kept-page key of a signed-in caller's page load, or null where the page is rendered. */
export function signedInPageKey(request: { method: string; url: string; headers: Headers }): string | null {
  return hasSessionCookie(request.headers) ? storefrontPageKey(request) : null;
}

/** The caller's role template for `key` and their values, or null: render the page as usual. */
export async function signedInPage(key: string, cookieHeader: string, origin: string): Promise<{ page: StoredPage; viewer: SignedInViewer } | null> {
  const viewers = global[SOURCE_KEY];
  if (!viewers) return null;
  const viewer = await viewers(cookieHeader).catch((error: unknown) => {
    console.error("[pages] could not tell who is signed in; rendering the page:", error);
    return null;
  });
  if (!viewer) return null;
  const page = await keptPage(key, origin, viewer.role);
  return page ? { page, viewer } : null;
}

const htmlEscapes: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;" };

/** Text for an HTML text node or a quoted attribute value. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => htmlEscapes[char]!);
}

/**
 * A role's template as one caller's response: their values in the slots and, for the header's
 * client components to hydrate from, in a JSON script; the nonce swapped for the request's own,
 * in the body and the headers. Null if a slot would stay empty (never served unfilled).
 */
export function replaySignedIn(page: StoredPage, viewer: PageViewerData, nonce: string, policy: string): Response | null {
  const values = new Map<string, string>([
    [VIEWER_SLOTS.displayName, escapeHtml(viewer.displayName)],
    [VIEWER_SLOTS.avatarUrl, escapeHtml(viewer.avatarUrl)],
    [VIEWER_SLOTS.cartCount, String(viewer.cartCount)],
    [VIEWER_SLOTS.cartDisplay, cartBadgeDisplay(viewer.cartCount)],
    // `<` escaped: the values cannot end the script early.
    ["</head>", `<script id="${VIEWER_DATA_ID}" type="application/json">${JSON.stringify(viewer).replaceAll("<", "\\u003c")}</script></head>`],
  ]);
  if (page.nonce) values.set(page.nonce, nonce);
  const body = fillHoles(page, (hole) => values.get(hole) ?? null);
  if (!body || !cutAtHead(page)) return null;
  // React's preload hints (`Link`) name the template's picture slot: those entries go, the
  // picture is a 32-pixel avatar the page loads anyway. Any other slot in a header: not served.
  const entries: [string, string][] = [];
  for (const [name, value] of page.headers) {
    const kept = name === "link" ? value.split(/,\s*(?=<)/).filter((entry) => !entry.includes(VIEWER_SLOT_PREFIX)).join(", ") : value;
    if (kept.includes(VIEWER_SLOT_PREFIX)) return null;
    if (kept) entries.push([name, kept]);
  }
  return new Response(body, { status: page.status, headers: replayHeaders(page, nonce, policy, entries) });
}
