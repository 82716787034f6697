/**
 * The commands of tests/api/model.test.ts: what customers, admins and visitors can do through
 * tRPC, plus "time passes" steps written straight to the database (many adds, many tries, days
 * going by) so that limits and deadlines come within a few commands. Each command says from the
 * model what the API must answer, calls it, compares, updates the model, and then checks the
 * invariants (invariants.ts).
 */
import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { sql } from "kysely";
import { expect } from "vitest";
import { CHECKOUT_LIMIT, CONTACT_LIMIT, DATA_EXPORT_LIMIT, MAX_CART_LINE_QUANTITY, PASSWORD_RESET_EMAIL_LIMIT, SIGN_IN_ADDRESS_LIMIT, SIGN_IN_EMAIL_LIMIT, SIGN_UP_LIMIT } from "@/lib/constants";
import { clientAddress, userLimitKey } from "@/server/security/rate-limit";
import { accountMessages, messages } from "@/lib/messages";
import type { OrderStatus } from "@/server/db/schema";
import { cancelUnpaidOrders } from "@/server/orders/order-queries";
import { ORDER_STATUSES } from "@/lib/statuses";
import { settingsFromEnv } from "@/server/settings/defaults";
import { UPLOAD_MESSAGES } from "@/server/storage/image-check";
import { callerAs } from "../browser";
import { fileOf, makePng } from "../images";
import { answer, expectOk, expectRefused, waitMessages, type Answer } from "./answers";
import { messagingCommands } from "./messaging-commands";
import { quoteCommands } from "./quote-commands";
import { asCustomer, expectSignInRequired, signedOut, Step, type ShopCommand } from "./step";
import { databaseNow, MODEL_CATEGORY, PASSWORD, type RealShop } from "./real-shop";
import {
  addRefusal,
  cartCount,
  cartTotalCents,
  cancelUnpaid,
  reopenShortfall,
  setOrderStatus,
  addInput,
  itemName,
  itemPersonalisation,
  itemProduct,
  itemUnitCents,
  itemVariant,
  ITEMS,
  PLAIN_PRODUCTS,
  type ModelVariant,
  CUSTOMERS,
  dropFromCarts,
  MAX_ORDER_TOTAL_CENTS,
  PRODUCTS,
  toCents,
  toRands,
  type ShopModel,
} from "./shop-model";

/** Refused one more on a line: the line's limit, or a counted stock the cart's lines would pass. */
function expectAddRefused(result: Answer<unknown>, what: string, refusal: "lineLimit" | "notEnoughStock") {
  if (refusal === "lineLimit") expectRefused(result, what, "BAD_REQUEST", messages.cart.lineLimit);
  else expectRefused(result, what, "CONFLICT", messages.cart.notEnoughStock);
}

// --- Cart --------------------------------------------------------------------------------------

class AddToCart extends Step {
  constructor(
    readonly customer: number,
    readonly product: number,
    /** Adding more of what the cart already has (the product page again, another tab). */
    readonly again: boolean,
  ) {
    super();
  }
  override precondition(model: Readonly<ShopModel>) {
    return !this.again || model.customers[this.customer]!.cart.has(this.product);
  }
  async step(model: ShopModel, real: RealShop) {
    const customer = model.customers[this.customer]!;
    const product = itemProduct(model, this.product);
    const what = String(this);
    const result = await asCustomer(real, this.customer, what, (caller) => caller.cart.add(addInput(model, this.product)));
    if (signedOut(customer)) return expectSignInRequired(result, what);
    if (product.deleted || !product.available) return expectRefused(result, what, "BAD_REQUEST", messages.cart.unavailable);
    const quantity = customer.cart.get(this.product) ?? 0;
    const refusal = addRefusal(model, customer, this.product);
    if (refusal) return expectAddRefused(result, what, refusal);
    const name = itemName(model, this.product);
    expect(expectOk(result, what), what).toEqual({
      quantity: quantity + 1,
      message: quantity === 0 ? messages.cart.added(name) : messages.cart.quantityUpdated(name),
    });
    customer.cart.set(this.product, quantity + 1);
  }
  toString() {
    return `customer ${this.customer} adds item ${this.product}`;
  }
}

/**
 * Many adds of one product at once (a held-down button, several tabs): each answer is a new
 * quantity or the line limit's refusal, never a server error, and the line ends at the limit
 * at most. On PostgreSQL (DATABASE_URL) they really run in parallel; PGlite takes them in turn.
 */
class BurstOfAdds extends Step {
  constructor(
    readonly customer: number,
    readonly product: number,
    readonly adds: number,
  ) {
    super();
  }
  async step(model: ShopModel, real: RealShop) {
    const customer = model.customers[this.customer]!;
    const product = itemProduct(model, this.product);
    const name = itemName(model, this.product);
    const what = String(this);
    const results = await Promise.all(
      Array.from({ length: this.adds }, () => asCustomer(real, this.customer, what, (caller) => caller.cart.add(addInput(model, this.product)))),
    );
    if (signedOut(customer)) return results.forEach((result) => expectSignInRequired(result, what));
    if (product.deleted || !product.available) return results.forEach((result) => expectRefused(result, what, "BAD_REQUEST", messages.cart.unavailable));
    const before = customer.cart.get(this.product) ?? 0;
    // The adds queue on the line's row: each is taken until the first refusal, which every later one repeats.
    let added = 0;
    const refusalAt = (quantity: number) => addRefusal(model, { ...customer, cart: new Map(customer.cart).set(this.product, quantity) }, this.product);
    while (added < this.adds && refusalAt(before + added) === null) added++;
    const refusal = refusalAt(before + added);
    const quantities = results.flatMap((result) => (result.ok ? [result.value.quantity] : [])).sort((a, b) => a - b);
    expect(quantities, what).toEqual(Array.from({ length: added }, (_, i) => before + i + 1));
    for (const result of results) {
      if (!result.ok) expectAddRefused(result, what, refusal ?? "lineLimit");
      else expect(result.value.message, what).toBe(result.value.quantity === 1 ? messages.cart.added(name) : messages.cart.quantityUpdated(name));
    }
    if (before + added > 0) customer.cart.set(this.product, before + added);
  }
  toString() {
    return `customer ${this.customer} adds item ${this.product} ${this.adds} times at once`;
  }
}

class ChangeLine extends Step {
  constructor(
    readonly customer: number,
    readonly product: number,
    readonly change: "increase" | "decrease" | "remove",
    /** Mostly a line the cart has, as from the cart page; otherwise any product (a stale tab). */
    readonly inCart: boolean,
  ) {
    super();
  }
  override precondition(model: Readonly<ShopModel>) {
    return !this.inCart || model.customers[this.customer]!.cart.has(this.product);
  }
  async step(model: ShopModel, real: RealShop) {
    const customer = model.customers[this.customer]!;
    const product = itemProduct(model, this.product);
    const name = itemName(model, this.product);
    const what = String(this);
    // The line's id as the cart page has it (none: a stale tab).
    const lineId = (await lineIdOf(model, real, this.customer, this.product)) ?? randomUUID();
    const result = await asCustomer(real, this.customer, what, (caller) => caller.cart[this.change]({ lineId }));
    if (signedOut(customer)) return expectSignInRequired(result, what);
    const quantity = customer.cart.get(this.product);
    if (quantity === undefined) return expectRefused(result, what, "NOT_FOUND", messages.cart.lineGone);
    if (this.change === "increase") {
      // The cart page offers no "+" on an unavailable line; the API says why instead of adding.
      if (!product.available) return expectRefused(result, what, "BAD_REQUEST", messages.cart.unavailable);
      const refusal = addRefusal(model, customer, this.product);
      if (refusal) return expectAddRefused(result, what, refusal);
      expect(expectOk(result, what), what).toEqual({ message: messages.cart.quantityUpdated(name) });
      customer.cart.set(this.product, quantity + 1);
    } else if (this.change === "decrease" && quantity > 1) {
      expect(expectOk(result, what), what).toEqual({ message: messages.cart.quantityUpdated(name) });
      customer.cart.set(this.product, quantity - 1);
    } else {
      expect(expectOk(result, what), what).toEqual({ message: messages.cart.removed });
      customer.cart.delete(this.product);
    }
  }
  toString() {
    return `customer ${this.customer} ${this.change}s item ${this.product}`;
  }
}

/** The id of the customer's cart line for the item (its variant and personalisation), if the cart has one. */
async function lineIdOf(model: ShopModel, real: RealShop, index: number, item: number): Promise<string | undefined> {
  const customer = model.customers[index]!;
  if (!customer.id) return undefined;
  const line = await real.db.kysely
    .selectFrom("cart_items")
    .select("id")
    .where("user_id", "=", customer.id)
    .where("variant_id", "=", itemVariant(model, item).id)
    .where(sql<boolean>`personalisation = ${JSON.stringify(itemPersonalisation(model, item))}::jsonb`)
    .executeTakeFirst();
  return line?.id;
}

class ListCart extends Step {
  constructor(readonly customer: number) {
    super();
  }
  async step(model: ShopModel, real: RealShop) {
    const customer = model.customers[this.customer]!;
    const what = String(this);
    const result = await asCustomer(real, this.customer, what, (caller) => caller.cart.list());
    if (signedOut(customer)) return expectSignInRequired(result, what);
    const cart = expectOk(result, what);
    expect(
      cart.lines.map((line) => ({
        productId: line.productId,
        variantId: line.variantId,
        name: line.name,
        price: line.price,
        quantity: line.quantity,
        available: line.available,
        personalisation: line.personalisation.map(({ label, value }) => ({ label, value })),
      })),
      what,
    ).toEqual(
      [...customer.cart].map(([index, quantity]) => {
        const product = itemProduct(model, index);
        const { name } = ITEMS[index]!;
        return {
          productId: product.id,
          variantId: itemVariant(model, index).id,
          name: itemName(model, index),
          price: toRands(itemUnitCents(model, index)),
          quantity,
          available: product.available,
          personalisation: name === null ? [] : [{ label: "Name", value: name }],
        };
      }),
    );
    expect({ total: cart.total, count: cart.count }, what).toEqual({ total: toRands(cartTotalCents(model, customer)), count: cartCount(customer) });
  }
  toString() {
    return `customer ${this.customer} opens the cart`;
  }
}

/**
 * "Time passes": the customer has added this product many times, in one step. Set straight in
 * SQL (privileged) so a run reaches the 10,000 line limit within a few commands instead of
 * ten thousand adds; the model knows, so later adds expect the limit's refusal.
 */
class ManyAdds extends Step {
  constructor(
    readonly customer: number,
    /** Which of the cart's lines (modulo their number). */
    readonly line: number,
    readonly belowLimit: number,
  ) {
    super();
  }
  override precondition(model: Readonly<ShopModel>) {
    return model.customers[this.customer]!.cart.size > 0;
  }
  async step(model: ShopModel, real: RealShop) {
    const customer = model.customers[this.customer]!;
    const items = [...customer.cart.keys()];
    const item = items[this.line % items.length]!;
    const quantity = MAX_CART_LINE_QUANTITY - this.belowLimit;
    await sql`update public.cart_items set quantity = ${quantity} where id = ${(await lineIdOf(model, real, this.customer, item))!}::uuid`.execute(real.db.kysely);
    customer.cart.set(item, quantity);
  }
  toString() {
    return `time passes: customer ${this.customer} has added to cart line ${this.line} until ${this.belowLimit} below the limit`;
  }
}

// --- Checkout ----------------------------------------------------------------------------------

/** checkout.start as the checkout page calls it on every load: the reserved reference, or a new one. */
async function openCheckout(model: ShopModel, real: RealShop, index: number, what: string) {
  const customer = model.customers[index]!;
  const result = await asCustomer(real, index, what, (caller) => caller.checkout.start());
  if (signedOut(customer)) return expectSignInRequired(result, what);
  const { reference, bankTransfer } = expectOk(result, what);
  expect(bankTransfer, what).toBe("demo");
  if (customer.reservation) return void expect(reference, `${what}: the same reference until an order is placed`).toBe(customer.reservation);
  if (customer.cart.size === 0) return void expect(reference, `${what}: an empty cart reserves nothing`).toBeNull();
  expect(reference, what).toMatch(/^ORD-[0-9]{1,6}$/);
  const taken = [...model.orders.map((order) => order.reference), ...model.customers.map((other) => other.reservation)];
  expect(taken, `${what}: a reference is never handed out twice`).not.toContain(reference);
  customer.reservation = reference;
}

class StartCheckout extends Step {
  constructor(
    readonly customer: number,
    /** Mostly with something in the cart, as the cart page links there; otherwise typed in. */
    readonly withCart: boolean,
  ) {
    super();
  }
  override precondition(model: Readonly<ShopModel>) {
    return !this.withCart || model.customers[this.customer]!.cart.size > 0;
  }
  async step(model: ShopModel, real: RealShop) {
    await openCheckout(model, real, this.customer, String(this));
  }
  toString() {
    return `customer ${this.customer} opens checkout`;
  }
}

/**
 * How the customer pays: from the checkout page (it loads, showing the reserved reference, and
 * the customer pays with it), with a reference of their own, with a file that is no proof, or
 * again with the last try's idempotency key (a double click, a retry after a lost answer).
 */
type CheckoutKind = "checkout page" | "made-up reference" | "invalid proof" | "retry";

class PlaceOrder extends Step {
  constructor(
    readonly customer: number,
    readonly kind: CheckoutKind,
    /** The number of a made-up reference (ORD-n), where one is sent. */
    readonly madeUp: number,
  ) {
    super();
  }
  override precondition(model: Readonly<ShopModel>) {
    const customer = model.customers[this.customer]!;
    // The page's Complete Payment button is disabled while the cart is empty.
    if (this.kind === "checkout page") return customer.cart.size > 0;
    if (this.kind === "retry") return customer.lastCheckout !== null;
    return true;
  }
  async step(model: ShopModel, real: RealShop) {
    const customer = model.customers[this.customer]!;
    const what = String(this);
    if (this.kind === "checkout page") await openCheckout(model, real, this.customer, `${what}: the page loads`);
    const retry = this.kind === "retry" ? customer.lastCheckout : null;
    const idempotencyKey = retry?.idempotencyKey ?? randomUUID();
    const madeUp = `ORD-${this.madeUp === Number(customer.reservation?.slice(4)) ? (this.madeUp + 1) % 1_000_000 : this.madeUp}`;
    const reference = retry?.reference ?? (this.kind === "checkout page" ? (customer.reservation ?? madeUp) : madeUp);
    const invalidProof = this.kind === "invalid proof";
    const form = new FormData();
    form.set("proof", invalidProof ? fileOf("This is not a picture of a payment.", "proof.png") : fileOf(makePng(8, 8), "proof.png"));
    form.set("reference", reference);
    form.set("idempotencyKey", idempotencyKey);
    const result = await asCustomer(real, this.customer, what, (caller) => caller.checkout.placeOrder(form));

    if (signedOut(customer)) return expectSignInRequired(result, what);
    if (customer.checkoutTries >= CHECKOUT_LIMIT.attempts) {
      return expectRefused(result, what, "TOO_MANY_REQUESTS", waitMessages(messages.security.slowDown, CHECKOUT_LIMIT.windowMs));
    }
    customer.checkoutTries++;
    customer.lastCheckout = { idempotencyKey, reference };
    const earlier = model.orders.find((order) => order.accountId === customer.id && order.idempotencyKey === idempotencyKey);
    if (earlier) {
      expect(expectOk(result, what), `${what}: a retry gets the first order back`).toEqual({
        orderId: earlier.id,
        reference: earlier.reference,
        message: messages.checkout.success(earlier.reference),
      });
      return;
    }
    if (customer.cart.size === 0) return expectRefused(result, what, "BAD_REQUEST", messages.checkout.cartEmptyOrSignedOut);
    if (invalidProof) return expectRefused(result, what, "BAD_REQUEST", UPLOAD_MESSAGES.not_a_proof);
    if ([...customer.cart.keys()].some((index) => !itemProduct(model, index).available)) {
      return expectRefused(result, what, "BAD_REQUEST", messages.checkout.itemsUnavailable);
    }
    if (reference !== customer.reservation) return expectRefused(result, what, "CONFLICT", messages.checkout.referenceStale);
    const totalCents = cartTotalCents(model, customer);
    if (totalCents > MAX_ORDER_TOTAL_CENTS) return expectRefused(result, what, "BAD_REQUEST", messages.checkout.totalTooLarge);
    // Counted stock is taken variant by variant (all the cart's lines of one together) in id
    // order; the first that has too few is named, by the variant's line name.
    const wanted = new Map<ModelVariant, { name: string; quantity: number }>();
    for (const [index, quantity] of customer.cart) {
      const variant = itemVariant(model, index);
      wanted.set(variant, { name: itemName(model, index), quantity: (wanted.get(variant)?.quantity ?? 0) + quantity });
    }
    const short = [...wanted].filter(([variant, { quantity }]) => variant.stock !== null && quantity > variant.stock).sort(([a], [b]) => (a.id < b.id ? -1 : 1))[0];
    if (short) return expectRefused(result, what, "CONFLICT", messages.checkout.notEnoughStock(short[1].name, short[0].stock!));

    const placed = expectOk(result, what);
    expect(placed, what).toEqual({ orderId: expect.any(String), reference, message: messages.checkout.success(reference) });
    model.orders.push({
      id: placed.orderId,
      reference,
      idempotencyKey,
      accountId: customer.id,
      status: "pending_payment",
      totalCents,
      lines: [...customer.cart].map(([index, quantity]) => {
        const variant = itemVariant(model, index);
        const stockTaken = variant.stock === null ? 0 : quantity;
        if (variant.stock !== null) variant.stock -= quantity;
        return { item: index, name: itemName(model, index), unitCents: itemUnitCents(model, index), quantity, stockTaken };
      }),
      ageDays: 0,
    });
    customer.cart.clear();
    customer.reservation = null;
  }
  toString() {
    return `customer ${this.customer} places an order (${this.kind})`;
  }
}

// --- The customer's orders, data and account ---------------------------------------------------

/** An order as the customer's history and the admin's list show it, lines in a stable order. */
function orderShape(order: { id: string; reference: string; status: string; total: number; items: { name: string; quantity: number; unitPrice: number }[] }) {
  return {
    id: order.id,
    reference: order.reference,
    status: order.status,
    total: order.total,
    // Two lines can share a name (one variant, other personalisation): the price and quantity order them.
    items: order.items
      .map(({ name, quantity, unitPrice }) => ({ name, quantity, unitPrice }))
      .sort((a, b) => a.name.localeCompare(b.name) || a.unitPrice - b.unitPrice || a.quantity - b.quantity),
  };
}

function modelOrderShape(model: ShopModel, index: number) {
  const order = model.orders[index]!;
  return orderShape({
    ...order,
    total: toRands(order.totalCents),
    items: order.lines.map((line) => ({ name: line.name, quantity: line.quantity, unitPrice: toRands(line.unitCents) })),
  });
}

class MyOrders extends Step {
  constructor(readonly customer: number) {
    super();
  }
  async step(model: ShopModel, real: RealShop) {
    const customer = model.customers[this.customer]!;
    const what = String(this);
    const result = await asCustomer(real, this.customer, what, (caller) => caller.orders.mine());
    if (signedOut(customer)) return expectSignInRequired(result, what);
    const newestFirst = model.orders.flatMap((order, index) => (order.accountId === customer.id ? [index] : [])).reverse();
    expect(expectOk(result, what).map(orderShape), what).toEqual(newestFirst.map((index) => modelOrderShape(model, index)));
  }
  toString() {
    return `customer ${this.customer} opens their purchase history`;
  }
}

class ExportData extends Step {
  constructor(readonly customer: number) {
    super();
  }
  async step(model: ShopModel, real: RealShop) {
    const customer = model.customers[this.customer]!;
    const what = String(this);
    const result = await asCustomer(real, this.customer, what, (caller) => caller.profile.exportData());
    if (signedOut(customer)) return expectSignInRequired(result, what);
    if (customer.exports >= DATA_EXPORT_LIMIT.attempts) {
      return expectRefused(result, what, "TOO_MANY_REQUESTS", waitMessages(messages.security.slowDown, DATA_EXPORT_LIMIT.windowMs));
    }
    customer.exports++;
    const data = expectOk(result, what);
    expect(data.account.email, what).toBe(customer.email);
    expect(new Set(data.orders.map((order) => order.reference)), what).toEqual(
      new Set(model.orders.filter((order) => order.accountId === customer.id).map((order) => order.reference)),
    );
    expect(data.cart.map(({ product, quantity }) => ({ product, quantity })), what).toEqual(
      [...customer.cart].map(([index, quantity]) => ({ product: itemName(model, index), quantity })),
    );
  }
  toString() {
    return `customer ${this.customer} downloads their data`;
  }
}

class SignOut extends Step {
  constructor(readonly customer: number) {
    super();
  }
  async step(model: ShopModel, real: RealShop) {
    const what = String(this);
    expect(expectOk(await asCustomer(real, this.customer, what, (caller) => caller.auth.signOut()), what), what).toEqual({ ok: true });
    model.customers[this.customer]!.signedIn = false;
  }
  toString() {
    return `customer ${this.customer} signs out`;
  }
}

class SignIn extends Step {
  constructor(
    readonly customer: number,
    readonly rightPassword: boolean,
  ) {
    super();
  }
  async step(model: ShopModel, real: RealShop) {
    const customer = model.customers[this.customer]!;
    const what = String(this);
    const password = this.rightPassword ? customer.password : `${customer.password}-wrong`;
    const result = await asCustomer(real, this.customer, what, (caller) => caller.auth.signIn({ email: customer.email, password }));
    if (customer.emailFailures >= SIGN_IN_EMAIL_LIMIT.attempts || customer.addressFailures >= SIGN_IN_ADDRESS_LIMIT.attempts) {
      return expectRefused(result, what, "TOO_MANY_REQUESTS", waitMessages(messages.auth.tooManyAttempts, SIGN_IN_EMAIL_LIMIT.windowMs));
    }
    if (customer.deleted || !this.rightPassword) {
      customer.emailFailures++;
      customer.addressFailures++;
      return expectRefused(result, what, "UNAUTHORIZED", messages.auth.invalidCredentials);
    }
    expect(expectOk(result, what), what).toEqual({ message: messages.auth.signInSuccess, redirectTo: "/products" });
    customer.emailFailures = 0;
    customer.signedIn = true;
  }
  toString() {
    return `customer ${this.customer} signs in with the ${this.rightPassword ? "right" : "wrong"} password`;
  }
}

class DeleteAccount extends Step {
  constructor(readonly customer: number) {
    super();
  }
  async step(model: ShopModel, real: RealShop) {
    const customer = model.customers[this.customer]!;
    const what = String(this);
    // Another tab's request, already past its sign-in check, still runs after the deletion.
    if (!signedOut(customer)) real.inFlight[this.customer] = await callerAs(real.db, { id: customer.id, email: customer.email, identity: { kind: "user", id: customer.id, email: customer.email } });
    const result = await asCustomer(real, this.customer, what, (caller) => caller.profile.deleteAccount());
    if (signedOut(customer)) return expectSignInRequired(result, what);
    expect(expectOk(result, what), what).toEqual({ ok: true });
    // Orders stay for the business's records (docs/architecture.md#decisions-on-the-spec); the cart and reservation go.
    Object.assign(customer, { deleted: true, signedIn: false, reservation: null });
    customer.cart.clear();
  }
  toString() {
    return `customer ${this.customer} deletes their account`;
  }
}

/** The customer signs up again with the same e-mail: refused while the account exists, a new account after deletion. */
class SignUpAgain extends Step {
  constructor(
    readonly customer: number,
    /** Mostly after deleting the account (the point of coming back); otherwise an address in use. */
    readonly afterDeletion: boolean,
  ) {
    super();
  }
  override precondition(model: Readonly<ShopModel>) {
    return !this.afterDeletion || model.customers[this.customer]!.deleted;
  }
  async step(model: ShopModel, real: RealShop) {
    const customer = model.customers[this.customer]!;
    const what = String(this);
    const result = await asCustomer(real, this.customer, what, (caller) =>
      caller.auth.signUp({ fullName: `Model Customer ${this.customer}`, email: customer.email, password: PASSWORD, confirmPassword: PASSWORD, acceptTerms: true }),
    );
    if (customer.signUps >= SIGN_UP_LIMIT.attempts) {
      return expectRefused(result, what, "TOO_MANY_REQUESTS", waitMessages(messages.security.slowDown, SIGN_UP_LIMIT.windowMs));
    }
    customer.signUps++;
    if (!customer.deleted) return expectRefused(result, what, "CONFLICT", messages.auth.emailInUse);
    expect(expectOk(result, what), what).toEqual({ message: messages.auth.signUpSuccess, signedIn: true });
    const account = await real.db.kysely.selectFrom("auth.users").select("id").where("email", "=", customer.email).executeTakeFirstOrThrow();
    // A new account: nothing of the old one's (its orders stay with the business, not with it).
    Object.assign(customer, { id: account.id, password: PASSWORD, deleted: false, signedIn: true, reservation: null, checkoutTries: 0, exports: 0, lastCheckout: null });
    real.inFlight[this.customer] = null;
  }
  toString() {
    return `customer ${this.customer} signs up again`;
  }
}

/**
 * "Forgot password?" (issue 34): the customer asks for a reset link, sets a new password from
 * the mailed link (signed in afterwards, the failed sign-ins of the forgotten one forgiven), and
 * may try the link a second time, which changes nothing.
 */
class ResetPassword extends Step {
  constructor(
    readonly customer: number,
    readonly useTwice: boolean,
  ) {
    super();
  }
  async step(model: ShopModel, real: RealShop) {
    const customer = model.customers[this.customer]!;
    const what = String(this);
    const asked = await asCustomer(real, this.customer, `${what}: asks`, (caller) => caller.auth.requestPasswordReset({ email: customer.email }));
    if (customer.resetRequests >= PASSWORD_RESET_EMAIL_LIMIT.attempts) return expectRefused(asked, `${what}: asks`, "TOO_MANY_REQUESTS", accountMessages.resetLimited);
    customer.resetRequests++;
    // The same answer whether or not the address still has an account.
    expect(expectOk(asked, `${what}: asks`), what).toEqual({ message: accountMessages.resetRequested });
    const mail = await real.db.kysely
      .selectFrom("mail_outbox")
      .select("data")
      .where("recipient", "=", customer.email)
      .where("template", "=", "password_reset")
      .orderBy("created_at", "desc")
      .limit(1)
      .executeTakeFirst();
    if (customer.deleted) {
      // No account, no link: any mail to the address is an old account's, whose link died with it.
      if (!mail) return;
    }
    expect(mail, `${what}: the mail`).toBeDefined();
    const token = (mail!.data as { token: string }).token;
    const password = `model-reset-${randomUUID().slice(0, 8)}`;
    const reset = await asCustomer(real, this.customer, `${what}: sets`, (caller) => caller.auth.resetPassword({ token, password, confirmPassword: password }));
    if (customer.deleted) return expectRefused(reset, `${what}: sets`, "BAD_REQUEST", accountMessages.resetLinkInvalid);
    expect(expectOk(reset, `${what}: sets`), what).toEqual({ message: accountMessages.passwordReset, redirectTo: "/products" });
    Object.assign(customer, { password, signedIn: true, emailFailures: 0 });
    if (!this.useTwice) return;
    const again = await asCustomer(real, this.customer, `${what}: again`, (caller) => caller.auth.resetPassword({ token, password: "model-third-2026", confirmPassword: "model-third-2026" }));
    expectRefused(again, `${what}: again`, "BAD_REQUEST", accountMessages.resetLinkInvalid);
  }
  toString() {
    return `customer ${this.customer} resets their password${this.useTwice ? " and uses the link twice" : ""}`;
  }
}

/** The profile's "Change password": the current one (right or wrong) first. */
class ChangePassword extends Step {
  constructor(
    readonly customer: number,
    readonly rightCurrent: boolean,
  ) {
    super();
  }
  async step(model: ShopModel, real: RealShop) {
    const customer = model.customers[this.customer]!;
    const what = String(this);
    const password = `model-changed-${randomUUID().slice(0, 8)}`;
    const currentPassword = this.rightCurrent ? customer.password : `${customer.password}-wrong`;
    const result = await asCustomer(real, this.customer, what, (caller) => caller.profile.changePassword({ currentPassword, password, confirmPassword: password }));
    if (signedOut(customer)) return expectSignInRequired(result, what);
    if (!this.rightCurrent) return expectRefused(result, what, "BAD_REQUEST", accountMessages.currentPasswordWrong);
    expect(expectOk(result, what), what).toEqual({ message: accountMessages.passwordChanged });
    customer.password = password;
  }
  toString() {
    return `customer ${this.customer} changes their password with the ${this.rightCurrent ? "right" : "wrong"} current one`;
  }
}

/** The profile's "Change e-mail": a link to the new address; the change only once it is opened. */
class ChangeEmail extends Step {
  constructor(
    readonly customer: number,
    readonly opensLink: boolean,
  ) {
    super();
  }
  async step(model: ShopModel, real: RealShop) {
    const customer = model.customers[this.customer]!;
    const what = String(this);
    const newEmail = `model-moved-${randomUUID().slice(0, 8)}@example.test`;
    const asked = await asCustomer(real, this.customer, `${what}: asks`, (caller) => caller.profile.changeEmail({ email: newEmail }));
    if (signedOut(customer)) return expectSignInRequired(asked, `${what}: asks`);
    expect(expectOk(asked, `${what}: asks`), what).toEqual({ message: accountMessages.emailChangeRequested(newEmail) });
    if (!this.opensLink) return;
    const mail = await real.db.kysely
      .selectFrom("mail_outbox")
      .select("data")
      .where("recipient", "=", newEmail)
      .where("template", "=", "email_change_confirm")
      .executeTakeFirstOrThrow();
    const token = (mail.data as { token: string }).token;
    const done = await asCustomer(real, this.customer, `${what}: confirms`, (caller) => caller.auth.confirmEmailChange({ token }));
    expect(expectOk(done, `${what}: confirms`), what).toEqual({ message: accountMessages.emailChanged(newEmail), email: newEmail });
    // A new address: its own sign-in and reset limits, untouched so far.
    Object.assign(customer, { email: newEmail, emailFailures: 0, resetRequests: 0 });
  }
  toString() {
    return `customer ${this.customer} changes their e-mail address${this.opensLink ? " and opens the link" : ""}`;
  }
}

/**
 * A request of the customer's, already under way when their account was deleted (another tab):
 * it adds to the cart or sends a contact message as the account that is gone.
 */
class InFlightRequest extends Step {
  constructor(
    readonly customer: number,
    readonly action: "add" | "contact",
    readonly product: number,
  ) {
    super();
  }
  override precondition(model: Readonly<ShopModel>) {
    return model.customers[this.customer]!.deleted;
  }
  async step(model: ShopModel, real: RealShop) {
    const caller = real.inFlight[this.customer];
    if (!caller) return;
    const what = String(this);
    if (this.action === "contact") {
      const result = await answer(caller.contact.send(contactForm(this.customer)), what);
      return expectRefused(result, what, "UNAUTHORIZED", messages.contact.signedOut);
    }
    const product = model.products[this.product]!;
    const result = await answer(caller.cart.add({ productId: product.id }), what);
    if (product.deleted || !product.available) return expectRefused(result, what, "BAD_REQUEST", messages.cart.unavailable);
    expectSignInRequired(result, what);
  }
  toString() {
    return `a request of customer ${this.customer}'s from before the deletion ${this.action === "add" ? `adds product ${this.product}` : "sends a contact message"}`;
  }
}

function contactForm(sender: number | "visitor") {
  return { name: `Model sender ${sender}`, email: "sender@example.test", phone: "", message: "Do you deliver on Saturdays?" };
}

/** The contact form, sent by a visitor or by a customer's browser (signed in or not). */
class SendMessage extends Step {
  constructor(readonly sender: number | "visitor") {
    super();
  }
  async step(model: ShopModel, real: RealShop) {
    const what = String(this);
    const form = contactForm(this.sender);
    const result =
      this.sender === "visitor"
        ? await answer(real.visitor.contact.send(form), what)
        : await asCustomer(real, this.sender, what, (caller) => caller.contact.send(form));
    const sent = this.sender === "visitor" ? model.visitorMessages : model.customers[this.sender]!.messages;
    if (sent >= CONTACT_LIMIT.attempts) return expectRefused(result, what, "TOO_MANY_REQUESTS", waitMessages(messages.security.slowDown, CONTACT_LIMIT.windowMs));
    expect(expectOk(result, what), what).toEqual({ message: messages.contact.sent(form.name) });
    if (this.sender === "visitor") model.visitorMessages++;
    else model.customers[this.sender]!.messages++;
    model.contactMessages++;
  }
  toString() {
    return `${this.sender === "visitor" ? "a visitor" : `customer ${this.sender}`} sends a contact message`;
  }
}

/** Admins read the messages: every one sent, none lost, none from a refused send. */
class AdminReadsMessages extends Step {
  async step(model: ShopModel, real: RealShop) {
    const what = String(this);
    const list = expectOk(await answer(real.admin.contact.list(), what), what);
    expect(list.length, what).toBe(model.contactMessages);
  }
  toString() {
    return "admin reads the contact messages";
  }
}

type Limited = "checkout" | "data export" | "sign-in";

/**
 * "Time passes": the customer has tried something many times (a script, an impatient reload),
 * counted by the browser's own limiter (privileged, the same counting the API does), so a run
 * reaches CHECKOUT_LIMIT, DATA_EXPORT_LIMIT and the sign-in limits within a few commands.
 */
class ManyTries extends Step {
  constructor(
    readonly customer: number,
    readonly limited: Limited,
    readonly tries: number,
  ) {
    super();
  }
  async step(model: ShopModel, real: RealShop) {
    const customer = model.customers[this.customer]!;
    const { signIn, request } = real.limits[this.customer]!;
    for (let i = 0; i < this.tries; i++) {
      if (this.limited === "checkout") await request.checkout.take(real.db.kysely, userLimitKey(customer.id));
      else if (this.limited === "data export") await request.dataExport.take(real.db.kysely, userLimitKey(customer.id));
      else {
        await signIn.byEmail.take(real.db.kysely, `email:${customer.email.toLowerCase()}`);
        await signIn.byAddress.take(real.db.kysely, `address:${clientAddress(real.browsers[this.customer]!.requestHeaders())}`);
      }
    }
    // A limiter counts only what it lets through: the counts stop at the limit.
    if (this.limited === "checkout") customer.checkoutTries = Math.min(customer.checkoutTries + this.tries, CHECKOUT_LIMIT.attempts);
    else if (this.limited === "data export") customer.exports = Math.min(customer.exports + this.tries, DATA_EXPORT_LIMIT.attempts);
    else {
      customer.emailFailures = Math.min(customer.emailFailures + this.tries, SIGN_IN_EMAIL_LIMIT.attempts);
      customer.addressFailures = Math.min(customer.addressFailures + this.tries, SIGN_IN_ADDRESS_LIMIT.attempts);
    }
  }
  toString() {
    return `time passes: customer ${this.customer} has tried ${this.limited} ${this.tries} more times`;
  }
}

// --- Admin -------------------------------------------------------------------------------------

class SetAvailability extends Step {
  constructor(
    readonly product: number,
    readonly available: boolean,
  ) {
    super();
  }
  async step(model: ShopModel, real: RealShop) {
    const product = model.products[this.product]!;
    const what = String(this);
    const result = await answer(real.admin.adminProducts.setAvailability({ id: product.id, available: this.available }), what);
    if (product.deleted) return expectRefused(result, what, "NOT_FOUND", messages.catalogue.productNotFound);
    expect(expectOk(result, what), what).toEqual({ message: messages.admin.availabilityChanged(product.name, this.available) });
    const spans = real.unavailable.get(product.id) ?? [];
    if (product.available && !this.available) spans.push({ from: await databaseNow(real.db), to: null });
    if (!product.available && this.available) spans.at(-1)!.to = await databaseNow(real.db);
    real.unavailable.set(product.id, spans);
    product.available = this.available;
  }
  toString() {
    return `admin sets product ${this.product} ${this.available ? "available" : "unavailable"}`;
  }
}

class DeleteProduct extends Step {
  constructor(readonly product: number) {
    super();
  }
  async step(model: ShopModel, real: RealShop) {
    const product = model.products[this.product]!;
    const what = String(this);
    const result = await answer(real.admin.adminProducts.delete({ id: product.id }), what);
    if (product.deleted) return expectRefused(result, what, "NOT_FOUND", messages.catalogue.productNotFound);
    expect(expectOk(result, what), what).toEqual({ message: messages.admin.productDeleted(product.name) });
    product.deleted = true;
    dropFromCarts(model, this.product);
  }
  toString() {
    return `admin deletes product ${this.product}`;
  }
}

/** Prices an admin may type, up to the largest the form takes (ten digits of rands). */
const PRICES = ["0.01", "19.99", "150", "149.50", "25000", "9999999999.99"] as const;

class ChangePrice extends Step {
  constructor(
    readonly product: number,
    readonly price: string,
  ) {
    super();
  }
  async step(model: ShopModel, real: RealShop) {
    const product = model.products[this.product]!;
    const what = String(this);
    const form = new FormData();
    form.set("id", product.id);
    form.set("name", product.name);
    form.set("description", "");
    form.set("price", this.price);
    form.set("categoryId", real.categoryId);
    const result = await answer(real.admin.adminProducts.update(form), what);
    if (product.deleted) return expectRefused(result, what, "NOT_FOUND", messages.catalogue.productNotFound);
    expect(expectOk(result, what), what).toEqual({ message: messages.admin.productUpdated(product.name) });
    product.priceCents = toCents(this.price);
  }
  toString() {
    return `admin prices product ${this.product} at R${this.price}`;
  }
}

/**
 * The admin's variants grid for an item's variant: counts its stock (or stops counting), with the
 * stock the grid read, or one read before an order took some (a stale tab).
 */
class SetStock extends Step {
  constructor(
    readonly item: number,
    readonly stock: number | null,
    readonly staleBy: number,
  ) {
    super();
  }
  async step(model: ShopModel, real: RealShop) {
    const product = itemProduct(model, this.item);
    const variant = itemVariant(model, this.item);
    const what = String(this);
    const stockWas = variant.stock === null ? null : variant.stock + this.staleBy;
    const result = await answer(
      real.admin.adminProducts.saveVariants({
        productId: product.id,
        variants: [{ id: variant.id, sku: null, price: null, available: true, stock: this.stock, stockWas, lowStockAt: null, pictureId: null }],
      }),
      what,
    );
    if (product.deleted) return expectRefused(result, what, "NOT_FOUND", messages.catalogue.productNotFound);
    // A stock left as read is not written; a changed one only over the stock read.
    if (this.stock !== stockWas && stockWas !== variant.stock) {
      return expectRefused(result, what, "CONFLICT", messages.admin.variants.stockChanged(variant.size ?? product.name, variant.stock));
    }
    expect(expectOk(result, what), what).toEqual({ message: messages.admin.variants.variantsSaved(product.name) });
    if (this.stock !== stockWas) variant.stock = this.stock;
  }
  toString() {
    return `admin sets item ${this.item}'s stock to ${this.stock ?? "not counted"}${this.staleBy ? ` from a grid ${this.staleBy} behind` : ""}`;
  }
}

/**
 * "Time passes": shoppers outside the model bought some of a counted product (straight in SQL,
 * privileged), so the model's carts hold more than is left and checkouts and reopenings must refuse.
 */
class OthersBuy extends Step {
  constructor(
    readonly item: number,
    readonly units: number,
  ) {
    super();
  }
  override precondition(model: Readonly<ShopModel>) {
    const variant = itemVariant(model, this.item);
    return !itemProduct(model, this.item).deleted && variant.stock !== null && variant.stock > 0;
  }
  async step(model: ShopModel, real: RealShop) {
    const variant = itemVariant(model, this.item);
    const left = Math.max(0, variant.stock! - this.units);
    await sql`update public.product_variants set stock = ${left} where id = ${variant.id}::uuid`.execute(real.db.kysely);
    variant.stock = left;
  }
  toString() {
    return `time passes: other shoppers buy ${this.units} of item ${this.item}'s variant`;
  }
}

class UpdateStatus extends Step {
  constructor(
    readonly pick: number,
    readonly status: OrderStatus,
  ) {
    super();
  }
  override precondition(model: Readonly<ShopModel>) {
    return model.orders.length > 0;
  }
  async step(model: ShopModel, real: RealShop) {
    const order = model.orders[this.pick % model.orders.length]!;
    const what = String(this);
    const result = await answer(real.admin.adminOrders.updateStatus({ id: order.id, status: this.status }), what);
    // Reopening a cancelled order takes its units again: refused while a counted stock has fewer left.
    if (order.status === "cancelled" && this.status !== "cancelled" && reopenShortfall(model, order).length > 0) {
      return expectRefused(result, what, "CONFLICT", messages.adminOrders.reopenOutOfStock);
    }
    expect(expectOk(result, what), what).toEqual({ message: messages.adminOrders.updated(order.reference, messages.adminStatus[this.status]) });
    setOrderStatus(model, order, this.status);
  }
  toString() {
    return `admin sets order #${this.pick} to ${this.status}`;
  }
}

class AdminListsOrders extends Step {
  constructor(readonly status: OrderStatus | undefined) {
    super();
  }
  async step(model: ShopModel, real: RealShop) {
    const what = String(this);
    const page = expectOk(await answer(real.admin.adminOrders.list({ status: this.status }), what), what);
    const expected = model.orders
      .flatMap((order, index) => (this.status === undefined || order.status === this.status ? [index] : []))
      .reverse()
      .map((index) => modelOrderShape(model, index));
    expect(page.orders.map(orderShape), what).toEqual(expected);
    expect(page.nextCursor, what).toBeNull();
  }
  toString() {
    return `admin lists ${this.status ?? "all"} orders`;
  }
}

class SetUnpaidDays extends Step {
  constructor(readonly days: number) {
    super();
  }
  async step(model: ShopModel, real: RealShop) {
    const what = String(this);
    const result = await answer(real.admin.settings.update({ ...settingsFromEnv(), unpaidOrderDays: this.days }), what);
    expect(expectOk(result, what).message, what).toBe(messages.settings.saved);
    model.unpaidOrderDays = this.days;
  }
  toString() {
    return `admin cancels unpaid orders after ${this.days} days`;
  }
}

/** The server's unpaid-order timer runs (src/server/orders/unpaid-orders.ts: the shop's connection, the settings' days). */
class ShopTimerRuns extends Step {
  async step(model: ShopModel, real: RealShop) {
    await cancelUnpaidOrders(real.db.kysely, model.unpaidOrderDays);
    cancelUnpaid(model);
  }
  toString() {
    return "the shop's unpaid-order timer runs";
  }
}

/** "Time passes": every order was placed `days` earlier (privileged, as the clock would). */
class DaysPass extends Step {
  constructor(readonly days: number) {
    super();
  }
  override precondition(model: Readonly<ShopModel>) {
    return model.orders.length > 0;
  }
  async step(model: ShopModel, real: RealShop) {
    await sql`update public.orders set created_at = created_at - make_interval(days => ${this.days})`.execute(real.db.kysely);
    for (const order of model.orders) order.ageDays += this.days;
  }
  toString() {
    return `time passes: ${this.days} days`;
  }
}

// --- Outsiders ---------------------------------------------------------------------------------

/** A visitor and an admin try the cart; the visitor looks the product up. */
class OutsidersTry extends Step {
  constructor(readonly product: number) {
    super();
  }
  async step(model: ShopModel, real: RealShop) {
    const product = model.products[this.product]!;
    const what = String(this);
    expectSignInRequired(await answer(real.visitor.cart.add({ productId: product.id }), `${what}: visitor adds`), `${what}: visitor adds`);
    expectSignInRequired(await answer(real.visitor.checkout.start(), `${what}: visitor checks out`), `${what}: visitor checks out`);
    expectRefused(await answer(real.admin.cart.add({ productId: product.id }), `${what}: admin adds`), `${what}: admin adds`, "FORBIDDEN", messages.cart.customersOnly);
    const details = await answer(real.visitor.catalogue.byId({ id: product.id }), `${what}: details`);
    if (product.deleted) return expectRefused(details, `${what}: details`, "NOT_FOUND", messages.catalogue.productNotFound);
    expect(expectOk(details, `${what}: details`), what).toMatchObject({ id: product.id, available: product.available, price: toRands(product.priceCents) });
    const listed = expectOk(await answer(real.visitor.catalogue.list({ category: MODEL_CATEGORY }), `${what}: list`), `${what}: list`);
    expect(listed.map((shown) => shown.id).includes(product.id), `${what}: the shop lists available products only`).toBe(product.available);
  }
  toString() {
    return `a visitor and an admin try product ${this.product}`;
  }
}

// --- The command set ---------------------------------------------------------------------------

const customer = fc.nat({ max: CUSTOMERS - 1 });
const product = fc.nat({ max: PRODUCTS - 1 });
/** What goes in a cart (ITEMS): a plain product, or the product with options in a size, with a name or not. */
const item = fc.nat({ max: ITEMS.length - 1 });
/** The plain products only: a request without a variant (from before the deletion). */
const plainProduct = fc.nat({ max: PLAIN_PRODUCTS - 1 });

/**
 * Every command, as one weighted choice: heavy on the cart and checkout, where state builds up
 * (an order needs an add, a checkout visit and a payment in that order), light on what ends a
 * run's interest early (deleting an account or a product, signing out).
 */
export function shopCommands(maxCommands: number, replayPath?: string) {
  const weighted = (weight: number, arbitrary: fc.Arbitrary<ShopCommand>) => ({ weight, arbitrary });
  const command = fc.oneof(
    weighted(12, fc.tuple(customer, item, fc.constantFrom(false, false, true)).map(([c, i, again]) => new AddToCart(c, i, again))),
    weighted(
      8,
      fc
        .tuple(customer, item, fc.constantFrom("increase" as const, "increase" as const, "decrease" as const, "remove" as const), fc.constantFrom(true, true, true, false))
        .map(([c, i, change, inCart]) => new ChangeLine(c, i, change, inCart)),
    ),
    weighted(2, customer.map((c) => new ListCart(c))),
    weighted(2, fc.tuple(customer, item, fc.integer({ min: 2, max: 20 })).map(([c, i, adds]) => new BurstOfAdds(c, i, adds))),
    weighted(3, fc.tuple(customer, fc.nat({ max: ITEMS.length - 1 }), fc.constantFrom(0, 0, 1)).map(([c, line, below]) => new ManyAdds(c, line, below))),
    weighted(6, fc.tuple(customer, fc.constantFrom(true, true, true, false)).map(([c, withCart]) => new StartCheckout(c, withCart))),
    weighted(
      8,
      fc
        .tuple(customer, fc.constantFrom<CheckoutKind>("checkout page", "checkout page", "checkout page", "made-up reference", "invalid proof", "retry", "retry"), fc.nat({ max: 999_999 }))
        .map(([c, kind, madeUp]) => new PlaceOrder(c, kind, madeUp)),
    ),
    weighted(2, customer.map((c) => new MyOrders(c))),
    weighted(1, customer.map((c) => new ExportData(c))),
    weighted(1, customer.map((c) => new SignOut(c))),
    weighted(2, fc.tuple(customer, fc.constantFrom(true, true, false)).map(([c, right]) => new SignIn(c, right))),
    weighted(1, customer.map((c) => new DeleteAccount(c))),
    weighted(1, fc.tuple(customer, fc.boolean()).map(([c, twice]) => new ResetPassword(c, twice))),
    weighted(1, fc.tuple(customer, fc.constantFrom(true, true, false)).map(([c, right]) => new ChangePassword(c, right))),
    weighted(1, fc.tuple(customer, fc.constantFrom(true, true, false)).map(([c, opens]) => new ChangeEmail(c, opens))),
    weighted(2, fc.tuple(customer, fc.constantFrom(true, true, false)).map(([c, afterDeletion]) => new SignUpAgain(c, afterDeletion))),
    weighted(1, fc.tuple(customer, fc.constantFrom("add" as const, "contact" as const), plainProduct).map(([c, action, p]) => new InFlightRequest(c, action, p))),
    weighted(2, fc.oneof(fc.constant("visitor" as const), customer).map((sender) => new SendMessage(sender))),
    weighted(1, fc.constant(new AdminReadsMessages())),
    weighted(2, fc.tuple(customer, fc.constantFrom<Limited>("checkout", "data export", "sign-in"), fc.integer({ min: 2, max: 10 })).map(([c, limited, tries]) => new ManyTries(c, limited, tries))),
    weighted(3, fc.tuple(product, fc.constantFrom(false, true, true)).map(([p, available]) => new SetAvailability(p, available))),
    weighted(1, product.map((p) => new DeleteProduct(p))),
    weighted(2, fc.tuple(product, fc.constantFrom(...PRICES)).map(([p, price]) => new ChangePrice(p, price))),
    weighted(
      3,
      fc
        .tuple(item, fc.constantFrom<number | null>(null, 0, 1, 2, 3, 5, 20), fc.constantFrom(0, 0, 0, 2))
        .map(([i, stock, staleBy]) => new SetStock(i, stock, staleBy)),
    ),
    weighted(2, fc.tuple(item, fc.constantFrom(1, 2, 5)).map(([i, units]) => new OthersBuy(i, units))),
    weighted(3, fc.tuple(fc.nat(), fc.constantFrom(...ORDER_STATUSES)).map(([pick, status]) => new UpdateStatus(pick, status))),
    weighted(2, fc.option(fc.constantFrom(...ORDER_STATUSES), { nil: undefined }).map((status) => new AdminListsOrders(status))),
    weighted(1, fc.constantFrom(0, 1, 7, 30).map((days) => new SetUnpaidDays(days))),
    weighted(1, fc.constant(new ShopTimerRuns())),
    weighted(1, fc.constantFrom(1, 3, 8).map((days) => new DaysPass(days))),
    weighted(1, product.map((p) => new OutsidersTry(p))),
    ...quoteCommands(weighted),
    ...messagingCommands(weighted),
  );
  return fc.commands<ShopModel, RealShop, false>([command], { maxCommands, size: "max", replayPath });
}
