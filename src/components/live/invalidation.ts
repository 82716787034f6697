import type { LiveTable } from "@/server/ports/live";
import type { api } from "@/trpc/react";

type Utils = ReturnType<typeof api.useUtils>;

/**
 * The one map from a table whose change reaches live views to the queries that show it: a change
 * refetches these (only the ones a mounted view uses; the rest are not cached), and a catch-up
 * after changes may have been missed (Realtime back, or polling) refetches all of them.
 */
export const LIVE_INVALIDATIONS: Record<LiveTable, (utils: Utils) => Promise<unknown>[]> = {
  cart_items: (utils) => [utils.cart.invalidate()],
  orders: (utils) => [utils.orders.invalidate(), utils.adminOrders.invalidate()],
  contact_messages: (utils) => [utils.contact.invalidate()],
  // Stock is shown on the product dashboard (the low and sold-out filter).
  low_stock_notices: (utils) => [utils.adminProducts.invalidate()],
  // A request asked, priced, sent or decided: the customer's quotes and the admins' inbox.
  quote_requests: (utils) => [utils.quotes.invalidate(), utils.adminQuotes.invalidate()],
};

/** Refetches what a change of `table` touched. */
export function invalidateFor(utils: Utils, table: LiveTable): void {
  void Promise.all(LIVE_INVALIDATIONS[table](utils));
}

/** Refetches everything live views show. */
export function invalidateAll(utils: Utils): void {
  for (const table of Object.keys(LIVE_INVALIDATIONS) as LiveTable[]) invalidateFor(utils, table);
}
