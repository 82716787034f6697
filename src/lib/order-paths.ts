/** One order's own page (src/app/profile/orders/[reference]): from the purchase history, checkout and the order mails. */
export function orderPath(reference: string): string {
  return `/profile/orders/${encodeURIComponent(reference)}`;
}
