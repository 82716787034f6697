/**
 * What a browser may keep of the shop's pages, and when it must let go.
 *
 * - A visitor's storefront page (home, about, contact, products, a product; no session cookie
 *   sent: `backForwardKeepable` in src/server/kept-pages/which-requests.ts) is `private,
 *   no-cache`: no shared cache stores it, the browser's HTTP cache must ask again before reusing
 *   it, and its back/forward cache may keep the page itself, so Back to the product list is
 *   instant. Such a page holds no user's data.
 * - Every other page, and every signed-in caller's page, stays `no-store` (Next.js's own
 *   default for a page rendered per request, and set again on a signed-in template's response):
 *   no cache keeps it, and Chrome never puts it in the back/forward cache.
 * - Signing out (the Sign Out form's post to /auth/signout, or the `auth.signOut` procedure) and
 *   deleting the account answer with `Clear-Site-Data: "cache"`: the browser
 *   drops the shop's HTTP cache and evicts every page of the shop from its back/forward cache,
 *   whatever it shows; and the browser then loads a new document (sign-in, sign-up and sign-out
 *   load the next page in full), so no page in which someone was signed in is left to go back to.
 */

/** A visitor's storefront page: kept by the browser for Back and Forward, never by a shared cache. */
export const VISITOR_PAGE_CACHE_CONTROL = "private, no-cache";

/** A page that may show someone's own data: never stored anywhere (Next.js's value for a dynamic page). */
export const PERSONAL_PAGE_CACHE_CONTROL = "private, no-cache, no-store, max-age=0, must-revalidate";

/** Sent with the answer to a sign-out or an account deletion. */
export const CLEAR_BROWSER_CACHE = { name: "Clear-Site-Data", value: '"cache"' } as const;

/** The procedures whose answer clears what the browser kept of the shop. */
const CLEARS_BROWSER_CACHE: ReadonlySet<string> = new Set(["auth.signOut", "profile.deleteAccount"]);

/**
 * The headers a tRPC answer adds for the browser's caches (the API route's `responseMeta`): a
 * successful sign-out or account deletion, alone or in a batch, clears them.
 */
export function browserCacheHeaders({ paths, type, errors }: { paths: readonly string[] | undefined; type: string; errors: readonly unknown[] }): Headers | undefined {
  if (type !== "mutation" || errors.length > 0 || !paths?.some((path) => CLEARS_BROWSER_CACHE.has(path))) return undefined;
  return new Headers([[CLEAR_BROWSER_CACHE.name, CLEAR_BROWSER_CACHE.value]]);
}
