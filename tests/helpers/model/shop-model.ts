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
/** Products without options (one variant each); one more, the last, has options and personalisation. */
export const PLAIN_PRODUCTS = 3;
export const PRODUCTS = PLAIN_PRODUCTS + 1;
/** The product with options (issue 37): a Size of S or L, and an optional name to add for R5. */
export const OPTIONS_PRODUCT = PLAIN_PRODUCTS;
export const SIZES = ["S", "L"] as const;
export const NAME_PRICE_CENTS = 500n;

export interface ModelVariant {
  id: string;
  /** Its Size; null: the one variant of a product without options. */
  size: string | null;
  /** Units in stock, when the admin counts them (issue 37); null: not counted. */
  stock: number | null;
}

export interface ModelProduct {
  id: string;
  name: string;
  /** Money in cents as bigint: 10,000 of a R9,999,999,999.99 product is beyond a double's exact range. */
  priceCents: bigint;
  available: boolean;
  deleted: boolean;
  /** What carts, orders and stock refer to: one for a product without options, one per Size otherwise. */
  variants: ModelVariant[];
  /** The personalisation field's id (a name to add), on the product with options. */
  nameFieldId: string | null;
}

/** What a cart line holds: a product's variant, with a name added or not. */
export interface ModelItem {
  product: number;
  variant: number;
  name: string | null;
}

/**
 * Everything a customer can put in a cart, by index: the plain products first (item i is product
 * i, so their lines read as before), then the product with options in each size, bare and with a
 * name (the same variant with other personalisation is a line of its own).
 */
export const ITEMS: ModelItem[] = [
  ...Array.from({ length: PLAIN_PRODUCTS }, (_, product) => ({ product, variant: 0, name: null })),
  { product: OPTIONS_PRODUCT, variant: 0, name: null },
  { product: OPTIONS_PRODUCT, variant: 1, name: null },
  { product: OPTIONS_PRODUCT, variant: 0, name: "Thandi" },
  { product: OPTIONS_PRODUCT, variant: 1, name: "Sipho" },
  { product: OPTIONS_PRODUCT, variant: 0, name: "Sipho" },
];

export function itemProduct(model: Readonly<ShopModel>, item: number): ModelProduct {
  return model.products[ITEMS[item]!.product]!;
}

export function itemVariant(model: Readonly<ShopModel>, item: number): ModelVariant {
  return itemProduct(model, item).variants[ITEMS[item]!.variant]!;
}

/** The line's name as the shop prints it: the product's, with the size ("Shirt — L"). */
export function itemName(model: Readonly<ShopModel>, item: number): string {
  const size = itemVariant(model, item).size;
  return size === null ? itemProduct(model, item).name : `${itemProduct(model, item).name} — ${size}`;
}

/** The unit price: the product's (the model's variants have none of their own), plus the name when one is added. */
export function itemUnitCents(model: Readonly<ShopModel>, item: number): bigint {
  return itemProduct(model, item).priceCents + (ITEMS[item]!.name === null ? 0n : NAME_PRICE_CENTS);
}

/** The personalisation a cart line holds ({} without). */
export function itemPersonalisation(model: Readonly<ShopModel>, item: number): Record<string, string> {
  const { name } = ITEMS[item]!;
  const field = itemProduct(model, item).nameFieldId;
  return name === null || field === null ? {} : { [field]: name };
}

/** What cart.add is sent for the item, as the product page sends it. */
export function addInput(model: Readonly<ShopModel>, item: number) {
  const product = itemProduct(model, item);
  if (product.nameFieldId === null) return { productId: product.id };
  return { productId: product.id, variantId: itemVariant(model, item).id, personalisation: itemPersonalisation(model, item) };
}

/** How many of the item's variant the customer's cart holds, over all its lines. */
export function variantInCart(customer: ModelCustomer, item: number): number {
  const { product, variant } = ITEMS[item]!;
  let count = 0;
  for (const [other, quantity] of customer.cart) {
    if (ITEMS[other]!.product === product && ITEMS[other]!.variant === variant) count += quantity;
  }
  return count;
}

export interface ModelCustomer {
  id: string;
  email: string;
  password: string;
  deleted: boolean;
  signedIn: boolean;
  /** Item index (ITEMS) → quantity, in the order the lines were added (the cart's order). */
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
  /** The item's index (ITEMS). */
  item: number;
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

/** A quote version sent to a customer (docs/quotes.md): one catalogue line of a plain item. */
export interface ModelQuote {
  requestId: string;
  quoteId: string;
  /** The customer's index, and the account that asked (a customer who deleted theirs has a new one). */
  customer: number;
  accountId: string;
  item: number;
  /** The line's name as quoted. */
  name: string;
  quantity: number;
  unitCents: bigint;
  status: "sent" | "accepted" | "declined" | "superseded";
  /** Its validity date has passed. */
  expired: boolean;
  /** The order an acceptance made. */
  reference: string | null;
}

export interface ShopModel {
  products: ModelProduct[];
  customers: ModelCustomer[];
  /** Oldest first. */
  orders: ModelOrder[];
  /** Every version sent, oldest first. */
  quotes: ModelQuote[];
  /** Each customer's last WhatsApp consent (by index): the account that gave it and the number; null once withdrawn. */
  consents: ({ accountId: string; phone: string } | null)[];
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
  for (const [item, quantity] of customer.cart) total += itemUnitCents(model, item) * BigInt(quantity);
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
 * Why adding one more of an item to the customer's cart is refused, in the order the shop checks
 * (the line's limit, then a counted stock over all the cart's lines of the variant); null: it is added.
 */
export function addRefusal(model: Readonly<ShopModel>, customer: ModelCustomer, item: number): "lineLimit" | "notEnoughStock" | null {
  if ((customer.cart.get(item) ?? 0) >= MAX_CART_LINE_QUANTITY) return "lineLimit";
  const stock = itemVariant(model, item).stock;
  if (stock !== null && variantInCart(customer, item) + 1 > stock) return "notEnoughStock";
  return null;
}

/**
 * The lines an order's reopening cannot take again (a counted stock with fewer units left than
 * it took); empty: it can. A deleted product's or an uncounted stock is left alone.
 */
export function reopenShortfall(model: ShopModel, order: ModelOrder): ModelVariant[] {
  const taken = new Map<ModelVariant, number>();
  for (const line of order.lines) {
    if (line.stockTaken === 0 || itemProduct(model, line.item).deleted) continue;
    const variant = itemVariant(model, line.item);
    taken.set(variant, (taken.get(variant) ?? 0) + line.stockTaken);
  }
  return [...taken].filter(([variant, units]) => variant.stock !== null && variant.stock < units).map(([variant]) => variant);
}

/** A status change, with what it does to counted stock (cancelling gives the units back, reopening takes them). */
export function setOrderStatus(model: ShopModel, order: ModelOrder, status: OrderStatus): void {
  const sign = status === "cancelled" && order.status !== "cancelled" ? 1 : order.status === "cancelled" && status !== "cancelled" ? -1 : 0;
  for (const line of order.lines) {
    const variant = itemVariant(model, line.item);
    if (sign !== 0 && line.stockTaken > 0 && !itemProduct(model, line.item).deleted && variant.stock !== null) variant.stock += sign * line.stockTaken;
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
  for (const customer of model.customers) {
    for (const item of [...customer.cart.keys()]) if (ITEMS[item]!.product === product) customer.cart.delete(item);
  }
}
