/**
 * A kept page as one response: the nonce it was rendered with swapped for the response's own
 * (the nonce is random, so it occurs in the HTML only where Next.js put it), and in a role's
 * template the caller's own values in the slots (src/lib/page-viewer.ts). Each response still
 * carries a nonce used once; what is saved is the render.
 */
import { cartBadgeDisplay, VIEWER_DATA_ID, VIEWER_SLOT_PREFIX, VIEWER_SLOTS, type PageViewerData } from "@/lib/page-viewer";
import type { StoredPage } from "./kept-store";

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

/**
 * The kept page's body with each hole filled by `fill` (given what the hole holds in the kept
 * page); null if `fill` leaves one unfilled (answers null).
 */
function fillHoles(page: StoredPage, fill: (hole: string) => string | null): Uint8Array<ArrayBuffer> | null {
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

/**
 * One response's body as a stream of its own bytes: a Uint8Array handed to Response is copied
 * once more (undici's extractBody), a second 150–235 kB copy and its garbage for every page.
 */
function streamOf(body: Uint8Array): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      controller.enqueue(body);
      controller.close();
    },
  });
}

/** A kept page's headers for one response: the nonce swapped for the request's own, its policy. */
function replayHeaders(page: StoredPage, nonce: string, policy: string, entries: [string, string][] = page.headers): Headers {
  const swap = (text: string) => (page.nonce ? text.split(page.nonce).join(nonce) : text);
  const headers = new Headers(entries.map(([name, value]): [string, string] => [name, swap(value)]));
  headers.set("content-security-policy", policy);
  return headers;
}

/** A kept visitors' page as this request's response: its nonce swapped for the request's own. */
export function replay(page: StoredPage, nonce: string, policy: string): Response {
  // The nonce is in the body's scripts and in headers too (the stylesheet's preload `link`).
  const body = fillHoles(page, (hole) => (hole === page.nonce ? nonce : hole))!;
  return new Response(streamOf(body), { status: page.status, headers: replayHeaders(page, nonce, policy) });
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
  if (!body || !cut(page).holes.includes("</head>")) return null;
  // React's preload hints (`Link`) name the template's picture slot: those entries go, the
  // picture is a 32-pixel avatar the page loads anyway. Any other slot in a header: not served.
  const entries: [string, string][] = [];
  for (const [name, value] of page.headers) {
    const kept = name === "link" ? value.split(/,\s*(?=<)/).filter((entry) => !entry.includes(VIEWER_SLOT_PREFIX)).join(", ") : value;
    if (kept.includes(VIEWER_SLOT_PREFIX)) return null;
    if (kept) entries.push([name, kept]);
  }
  return new Response(streamOf(body), { status: page.status, headers: replayHeaders(page, nonce, policy, entries) });
}

/** A kept API answer as this request's response. */
export function replayAnswer(answer: StoredPage): Response {
  return new Response(answer.body, { status: answer.status, headers: new Headers(answer.headers) });
}
