/**
 * The reference model of the shop for tests/api/model.test.ts: a deliberately small picture of
 * what customers, admins and visitors can see (catalogue, carts, checkout references, orders and
 * their statuses, the unpaid-order setting, the rate limits), kept in plain data so each command
 * can say what the API must answer before it calls it.
 */
import type { OrderStatus } from "@/server/db/schema";

/** How many customers and products one run plays with: few, so commands collide often. */
export const CUSTOMERS = 2;
export const PRODUCTS = 3;

export interface ModelProduct {
  id: string;
  name: string;
  /** Money in cents as bigint: 10,000 of a R9,999,999,999.99 product is beyond a double's exact range. */
  priceCents: bigint;
  available: boolean;
  deleted: boolean;
}

export interface ModelCustomer {
  id: string;
  email: string;
  password: string;
  deleted: boolean;
  signedIn: boolean;
  /** Product index → quantity, in the order the lines were added (the cart's order). */
  cart: Map<number, number>;
  /** The open checkout reference, once checkout.start has reserved one. */
  reservation: string | null;
  /** Checkouts counted against CHECKOUT_LIMIT (every well-formed try while not limited). */
  checkoutTries: number;
  /** Data exports counted against DATA_EXPORT_LIMIT. */
  exports: number;
  /** Failed sign-ins since the last good one (the per-e-mail limit), and ever (the per-address one). */
  emailFailures: number;
  addressFailures: number;
  /** Sign-ups from this customer's browser, counted against SIGN_UP_LIMIT. */
  signUps: number;
  /** "Forgot password?" requests for this customer's address, counted against PASSWORD_RESET_EMAIL_LIMIT. */
  resetRequests: number;
  /** Contact messages sent from this customer's browser, counted against CONTACT_LIMIT. */
  messages: number;
  /** The last checkout sent, for a retry with the same idempotency key (a double click). */
  lastCheckout: { idempotencyKey: string; reference: string } | null;
}

export interface ModelOrderLine {
  name: string;
  unitCents: bigint;
  quantity: number;
}

export interface ModelOrder {
  id: string;
  reference: string;
  idempotencyKey: string;
  /** The account that placed it: a customer who deleted theirs and signed up again has a new one. */
  accountId: string;
  status: OrderStatus;
  totalCents: bigint;
  lines: ModelOrderLine[];
  /** Days the order has been waiting, as the "days pass" step moved its placement back. */
  ageDays: number;
}

export interface ShopModel {
  products: ModelProduct[];
  customers: ModelCustomer[];
  /** Oldest first. */
  orders: ModelOrder[];
  /** The shop setting: pending_payment orders this many days old are cancelled (0: never). */
  unpaidOrderDays: number;
  /** Contact messages stored this run, and those the visitor sent (CONTACT_LIMIT). */
  contactMessages: number;
  visitorMessages: number;
}

/** "149.50" → 14950n. */
export function toCents(rands: string): bigint {
  const [whole = "0", fraction = ""] = rands.split(".");
  return BigInt(whole) * 100n + BigInt(fraction.padEnd(2, "0").slice(0, 2));
}

/**
 * 14950n → 149.5: the number the API answers with, made the way the server makes it (Number()
 * of the exact decimal SQL returns), so amounts beyond a double's precision round alike.
 */
export function toRands(cents: bigint): number {
  return Number(`${cents / 100n}.${String(cents % 100n).padStart(2, "0")}`);
}

/** The largest amount numeric(12, 2) holds: orders.total's type. */
export const MAX_ORDER_TOTAL_CENTS = 999_999_999_999n;

export function cartCount(customer: ModelCustomer): number {
  let count = 0;
  for (const quantity of customer.cart.values()) count += quantity;
  return count;
}

export function cartTotalCents(model: ShopModel, customer: ModelCustomer): bigint {
  let total = 0n;
  for (const [product, quantity] of customer.cart) total += model.products[product]!.priceCents * BigInt(quantity);
  return total;
}

/** What the shop does on every admin read of the orders: cancel what waited too long unpaid. */
export function cancelUnpaid(model: ShopModel): void {
  if (model.unpaidOrderDays === 0) return;
  for (const order of model.orders) {
    if (order.status === "pending_payment" && order.ageDays >= model.unpaidOrderDays) order.status = "cancelled";
  }
}

/** Order Management's tab counts, from the model. */
export function orderCounts(model: ShopModel): Record<OrderStatus | "all", number> {
  const counts = { all: 0, pending_payment: 0, pending_delivery: 0, complete: 0, cancelled: 0 };
  for (const order of model.orders) {
    counts.all++;
    counts[order.status]++;
  }
  return counts;
}

/** Drops a deleted product's lines from every cart (the database's cascade). */
export function dropFromCarts(model: ShopModel, product: number): void {
  for (const customer of model.customers) customer.cart.delete(product);
}
