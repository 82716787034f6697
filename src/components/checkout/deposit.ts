/** What checkout asks now and what is left for the balance, when the cart's bookings ask a deposit (docs/bookings.md). */
export interface Deposit {
  /** The cart's deposits and other lines (SQL's), plus the delivery fee. 0: nothing now, so no proof to upload. */
  dueNow: number;
  /** The balance, paid later from the order's page (SQL's). */
  later: number;
}

/** The cart's deposit with the fee chosen at checkout; null while the whole total is due now. */
export function depositOf(cart: { dueNow: number | null; later: number | null } | undefined, fee: number): Deposit | null {
  return cart && cart.dueNow !== null && cart.later !== null ? { dueNow: cart.dueNow + fee, later: cart.later } : null;
}
