/** One order's own page (src/app/profile/orders/[reference]): from the purchase history, checkout and the order mails. */
export function orderPath(reference: string): string {
  return `/profile/orders/${encodeURIComponent(reference)}`;
}

/** A customer's quote (src/app/profile/quotes/[id]): from their quote list, the request form and the quote notices. */
export function quotePath(requestId: string): string {
  return `/profile/quotes/${encodeURIComponent(requestId)}`;
}
