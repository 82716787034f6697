/**
 * The NOTIFY channels the database's triggers announce changes on, which every server process
 * LISTENs to (docs/architecture.md#caches-and-several-processes). Payloads carry ids only.
 */

/** Products, categories and shop settings (migrations: their triggers): the catalogue and the kept settings drop everything. */
export const CATALOGUE_CHANNEL = "catalogue_changes";

/** Orders and cart lines (migrations: notify_shop_change): JSON with table, op, id, user_id. */
export const SHOP_CHANGES_CHANNEL = "shop_changes";

/**
 * Sessions, accounts and profiles: `session:<id>` (a local session ended) or `user:<id>` (an
 * account or profile changed or went). From the compatibility schema's auth triggers and the
 * migrations' profile trigger.
 */
export const SESSION_CHANNEL = "session_changes";

/** What a SESSION_CHANNEL payload names: one session, or everything of one user; null if neither. */
export function parseSessionChange(payload: string): { session: string } | { user: string } | null {
  const [kind, id, ...rest] = payload.split(":");
  if (!id || rest.length > 0) return null;
  if (kind === "session") return { session: id };
  if (kind === "user") return { user: id };
  return null;
}

/** The user whose cart a SHOP_CHANGES_CHANNEL payload is about, if it is a cart line's change. */
export function cartOwnerOf(payload: string): string | null {
  try {
    const change = JSON.parse(payload) as { table?: unknown; user_id?: unknown };
    return change.table === "cart_items" && typeof change.user_id === "string" ? change.user_id : null;
  } catch {
    return null;
  }
}
