/**
 * What a page shows of the signed-in user who views it (the header's picture, greeting and cart
 * badge), and how a role's template leaves room for it.
 *
 * A page may be rendered for a role with nobody signed in (src/server/auth/page-viewer.ts): then
 * the header's components put these slots where the user's own values go, and whoever asked for
 * the template fills them in per response with its own caller's values (the template holds no
 * user's data at all). The same values travel in the page as JSON (VIEWER_DATA_ID), so the
 * header's client components render exactly what the HTML shows and hydrate without a mismatch.
 * A page rendered for one user gets the values from the server directly instead.
 */

/** The signed-in viewer's own values on a page. */
export interface PageViewerData {
  id: string;
  /** The greeting's name: the profile's full name, else the e-mail. */
  displayName: string;
  /** The profile picture, or the placeholder. */
  avatarUrl: string;
  /** How many items the cart holds (0 for an admin, who has none). */
  cartCount: number;
}

/** Where each value goes in a template's HTML: text and attribute values React leaves as they are. */
export const VIEWER_SLOTS = {
  displayName: "__shop_viewer_name__",
  avatarUrl: "__shop_viewer_avatar__",
  cartCount: "__shop_viewer_cart_count__",
  /** The cart badge's display class: shown with items, hidden without. */
  cartDisplay: "__shop_viewer_cart_display__",
} as const;

/** Every slot begins with this, and nothing else in a page does. */
export const VIEWER_SLOT_PREFIX = "__shop_viewer_";

/** The id of the JSON script carrying the viewer values a filled template was served with. */
export const VIEWER_DATA_ID = "shop-viewer";

/** A `<meta name>` every signed-in page carries (the root layout's), so the signed-in components' chunks are fetched as soon as the page's scripts run (src/components/signed-in.tsx). */
export const SIGNED_IN_MARK = "shop-signed-in";

/** The cart badge's display class for a count. */
export function cartBadgeDisplay(count: number): "inline-flex" | "hidden" {
  return count > 0 ? "inline-flex" : "hidden";
}

/** The placeholder picture of a user without one. */
export const AVATAR_PLACEHOLDER = "/avatar-placeholder.svg";

/** Whether `value` has the shape of PageViewerData (it is read back from the page). */
export function isPageViewerData(value: unknown): value is PageViewerData {
  if (typeof value !== "object" || value === null) return false;
  const data = value as Record<string, unknown>;
  return typeof data.id === "string" && typeof data.displayName === "string" && typeof data.avatarUrl === "string" && typeof data.cartCount === "number";
}

/**
 * An attribute on what a page shows that goes stale by the clock rather than by a change the
 * server hears of (a bookable service's free times): a kept page carrying it is never served
 * past its time while it is rendered again (src/server/kept-pages/kept-store.ts).
 */
export const CHANGES_BY_THE_CLOCK = "data-changes-by-the-clock";
