/**
 * Kept pages: storefront pages and the catalogue's public API answers kept as rendered and
 * served again, so a page load costs no render (about 10 ms of CPU a page, which limited the
 * shop to ~100 pages/s). Every page is rendered per request otherwise: the header shows who is
 * signed in, and the Content-Security-Policy nonce must be new for every response.
 *
 * - A visitor's (no session cookie) storefront page is the same for everyone: kept once, served
 *   with the response's own nonce in place of the one it was rendered with.
 * - A signed-in user's storefront page differs from a visitor's only by role (the navigation,
 *   Add to Cart) and by the user's own name, picture and cart count: each role's page is kept as
 *   a template, rendered with nobody signed in and slots for those values, and each response
 *   fills the slots with its own caller's values. No kept page holds any user's data.
 * - The catalogue's GET answers (`catalogue.list` and the like) are the same for every caller
 *   without a session: answering them here spares Next's route handler, tRPC and superjson
 *   (~3 ms of CPU a call in a profile).
 *
 * The room: ./which-requests.ts decides, ./kept-store.ts keeps and fills (dropped on every
 * catalogue change: `dropKeptPages`; ./stylesheet-once.ts and ./critical-stylesheet.ts trim
 * what it keeps), ./responses.ts serves, ./signed-in-viewers.ts learns from the platform who is
 * signed in. `serveKept` is the one entry, called by src/proxy.ts. Pages and
 * components know none of it: they render a role's template when asked by this process
 * (src/server/auth/page-viewer.ts) with the slots of src/lib/page-viewer.ts.
 */
import { env } from "@/env";
import { PERSONAL_PAGE_CACHE_CONTROL, VISITOR_PAGE_CACHE_CONTROL } from "@/server/security/page-caching";
import { keptPage, type StoredPage } from "./kept-store";
import { replay, replayAnswer, replaySignedIn } from "./responses";
import { signedInViewer, type SignedInViewer } from "./signed-in-viewers";
import { keptAnswerKey, signedInPageKey, visitorPageKey } from "./which-requests";

/** Whether a page the proxy passes on to the render may be kept by the browser for Back (see ./which-requests.ts). */
export { backForwardKeepable } from "./which-requests";

/** What a kept page needs from the proxy for one response. */
export interface ResponseParts {
  /** This response's nonce, and its policy naming it. */
  nonce: string;
  policy: string;
  /**
   * Renews the caller's session cookie if it needs it (the proxy sends what it sets with the
   * response); run before a signed-in caller is looked up, never for a visitor.
   */
  renewSession: () => Promise<void>;
}

/**
 * This request's answer from the kept pages, or null: render it as usual. `origin` is where the
 * server reaches itself to fill a page; there are none outside a production server.
 */
export async function serveKept(request: Request, parts: ResponseParts, origin: string | null = keptPagesOrigin()): Promise<Response | null> {
  if (!origin) return null;
  const answerKey = keptAnswerKey(request);
  if (answerKey) {
    const answer = await keptPage(answerKey, origin, "answer");
    return answer ? replayAnswer(answer) : null;
  }
  const visitorKey = visitorPageKey(request);
  if (visitorKey) {
    const page = await keptPage(visitorKey, origin, "visitor");
    if (!page) return null;
    const response = replay(page, parts.nonce, parts.policy);
    // Nobody's own page: the browser may keep it for Back (the fill was rendered `no-store`).
    response.headers.set("cache-control", VISITOR_PAGE_CACHE_CONTROL);
    return response;
  }
  const signedInKey = signedInPageKey(request);
  if (!signedInKey) return null;
  await parts.renewSession();
  const served = await signedInPage(signedInKey, request.headers.get("cookie") ?? "", origin);
  const response = served ? replaySignedIn(served.page, served.viewer.data, parts.nonce, parts.policy) : null;
  // The caller's own name and cart count: never stored, whatever the template was rendered with.
  response?.headers.set("cache-control", PERSONAL_PAGE_CACHE_CONTROL);
  return response;
}

/** The caller's role template for `key` and their values, or null: render the page as usual. */
export async function signedInPage(key: string, cookieHeader: string, origin: string): Promise<{ page: StoredPage; viewer: SignedInViewer } | null> {
  const viewer = await signedInViewer(cookieHeader);
  if (!viewer) return null;
  const page = await keptPage(key, origin, viewer.role);
  return page ? { page, viewer } : null;
}

/** Where a production server (`next start` sets PORT) reaches itself; null elsewhere. */
function keptPagesOrigin(): string | null {
  const port = process.env.PORT;
  return env.NODE_ENV === "production" && port ? `http://127.0.0.1:${port}` : null;
}
