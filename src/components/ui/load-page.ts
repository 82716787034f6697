/**
 * Loads `path` as a new document instead of a client navigation. Used when who is signed in
 * changes (sign-in, sign-up, sign-out, account deletion): a visitor's storefront page may be kept
 * by the browser for Back (src/server/security/page-caching.ts), so the document it was loaded
 * into must never go on to show someone signed in, and nothing held in memory for a user (their
 * cart, orders, the router's cached pages) may outlive their session in the tab.
 */
export function loadPage(path: string, how: "push" | "replace" = "push"): void {
  if (how === "replace") window.location.replace(path);
  else window.location.assign(path);
}
