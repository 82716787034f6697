/**
 * The reference model of the shop for tests/api/model.test.ts: a deliberately small picture of
 * what customers, admins and visitors can see (catalogue, carts, checkout references, orders and
 * their statuses, the unpaid-order setting, the rate limits), kept in plain data so each command
 * can say what the API must answer before it calls it.
 */
import { MAX_CART_LINE_QUANTITY } from "@/lib/constants";
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
  /** Its one variant (the model's products have no options): what carts, orders and stock refer to. */
  variantId: string;
  /** Units in stock, when the admin counts them (issue 37); null: not counted. */
  stock: number | null;
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
  /** The product's index in the model. */
  product: number;
  name: string;
  unitCents: bigint;
  quantity: number;
  /** Units taken from a counted stock at checkout (0: not counted then), given back on cancellation. */
  stockTaken: number;
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
    if (order.status === "pending_payment" && order.ageDays >= model.unpaidOrderDays) setOrderStatus(model, order, "cancelled");
  }
}

/**
 * Why adding one more to a line of `quantity` is refused, in the order the shop checks (the
 * line's limit, then a counted stock over the line; the model's lines are one per product); null: it is added.
 */
export function addRefusal(product: ModelProduct, quantity: number): "lineLimit" | "notEnoughStock" | null {
  if (quantity >= MAX_CART_LINE_QUANTITY) return "lineLimit";
  if (product.stock !== null && quantity + 1 > product.stock) return "notEnoughStock";
  return null;
}

/**
 * The lines an order's reopening cannot take again (a counted stock with fewer units left than
 * it took); empty: it can. A deleted product's or an uncounted stock is left alone.
 */
export function reopenShortfall(model: ShopModel, order: ModelOrder): ModelOrderLine[] {
  return order.lines.filter((line) => {
    const product = model.products[line.product]!;
    return line.stockTaken > 0 && !product.deleted && product.stock !== null && product.stock < line.stockTaken;
  });
}

/** A status change, with what it does to counted stock (cancelling gives the units back, reopening takes them). */
export function setOrderStatus(model: ShopModel, order: ModelOrder, status: OrderStatus): void {
  const sign = status === "cancelled" && order.status !== "cancelled" ? 1 : order.status === "cancelled" && status !== "cancelled" ? -1 : 0;
  for (const line of order.lines) {
    const product = model.products[line.product]!;
    if (sign !== 0 && line.stockTaken > 0 && !product.deleted && product.stock !== null) product.stock += sign * line.stockTaken;
  }
  order.status = status;
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
