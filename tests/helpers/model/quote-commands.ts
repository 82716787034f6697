/**
 * Quote commands for tests/api/model.test.ts (docs/quotes.md): a customer asks and the admin
 * prices and sends; the customer accepts (several taps at once), declines, or asks for a change
 * that the admin answers with a revision; a quote's validity date passes; the other customer
 * tries to accept it. The model says what each answer must be, and an accepted quote's order joins
 * the model's orders, so every invariant (order totals, counted stock, Order Management's tabs,
 * each customer's purchase history) holds for quote orders as for checkout's.
 */
import fc from "fast-check";
import { sql } from "kysely";
import { expect } from "vitest";
import { shopDay } from "@/lib/days";
import { quoteMessages } from "@/lib/messages";
import { answer, expectOk, expectRefused, type Answer } from "./answers";
import { asCustomer, expectSignInRequired, signedOut, Step, type ShopCommand } from "./step";
import type { RealShop } from "./real-shop";
import { CUSTOMERS, itemName, itemProduct, itemVariant, PLAIN_PRODUCTS, toCents, type ModelQuote, type ShopModel } from "./shop-model";

/** Items a quote names: the plain products' (no personalisation to quote). */
const quoteItem = fc.nat({ max: PLAIN_PRODUCTS - 1 });
/** Quoted unit prices: below, at and above what the catalogue asks; small enough that a line's total fits. */
const quotePrice = fc.constantFrom("0.50", "19.99", "120", "149.50");
const customer = fc.nat({ max: CUSTOMERS - 1 });

function quoteOf(model: Readonly<ShopModel>, pick: number): ModelQuote {
  return model.quotes[pick % model.quotes.length]!;
}

/** A draft of one catalogue line, valid for 30 days. */
function draftInput(requestId: string, variantId: string, quantity: number, unitPrice: string) {
  return { requestId, validUntil: shopDay(30), lines: [{ kind: "catalogue" as const, variantId, quantity, unitPrice }] };
}

/**
 * How a decision on `quote` by its customer must be answered, before the state decides: signed
 * out, or a request of the account they had before deleting it (no longer theirs: NOT_FOUND).
 */
function gate(model: Readonly<ShopModel>, quote: ModelQuote, result: Answer<unknown>, what: string): boolean {
  const customer = model.customers[quote.customer]!;
  if (signedOut(customer)) {
    expectSignInRequired(result, what);
    return true;
  }
  if (customer.id !== quote.accountId) {
    expectRefused(result, what, "NOT_FOUND", quoteMessages.notFound);
    return true;
  }
  return false;
}

/** Why a decision on a version is refused by its state at this moment; null while it is open. */
function closedRefusal(quote: ModelQuote): string | null {
  if (quote.status === "superseded") return quoteMessages.superseded;
  if (quote.status === "declined") return quoteMessages.declinedAlready;
  if (quote.status === "accepted") return quoteMessages.acceptedAlready;
  if (quote.expired) return quoteMessages.expired;
  return null;
}

/** The admin prices a request at `unitPrice` and sends it; the sent version joins the model. */
async function priceAndSend(model: ShopModel, real: RealShop, args: { requestId: string; customer: number; accountId: string; item: number; quantity: number; unitPrice: string; what: string }) {
  const variant = itemVariant(model, args.item);
  const saved = await answer(real.admin.adminQuotes.saveDraft(draftInput(args.requestId, variant.id, args.quantity, args.unitPrice)), `${args.what}: admin saves`);
  if (itemProduct(model, args.item).deleted) return expectRefused(saved, `${args.what}: admin saves`, "BAD_REQUEST", quoteMessages.productUnavailable);
  const { quoteId } = expectOk(saved, `${args.what}: admin saves`);
  const sent = expectOk(await answer(real.admin.adminQuotes.send({ quoteId }), `${args.what}: admin sends`), `${args.what}: admin sends`);
  expect(sent.message, args.what).toBe(quoteMessages.sent(sent.number));
  for (const other of model.quotes) if (other.requestId === args.requestId && other.status === "sent") other.status = "superseded";
  model.quotes.push({
    requestId: args.requestId,
    quoteId,
    customer: args.customer,
    accountId: args.accountId,
    item: args.item,
    name: itemName(model, args.item),
    quantity: args.quantity,
    unitCents: toCents(args.unitPrice),
    status: "sent",
    expired: false,
    reference: null,
  });
}

class AskForQuote extends Step {
  constructor(
    readonly customer: number,
    readonly item: number,
    readonly quantity: number,
    readonly price: string,
  ) {
    super();
  }
  async step(model: ShopModel, real: RealShop) {
    const customer = model.customers[this.customer]!;
    const what = String(this);
    const variant = itemVariant(model, this.item);
    const result = await asCustomer(real, this.customer, what, (caller) =>
      caller.quotes.request({ description: "A quote, please.", items: [{ variantId: variant.id, quantity: this.quantity }] }),
    );
    if (signedOut(customer)) return expectSignInRequired(result, what);
    if (itemProduct(model, this.item).deleted) return expectRefused(result, what, "BAD_REQUEST", quoteMessages.productUnavailable);
    const { requestId } = expectOk(result, what);
    await priceAndSend(model, real, { requestId, customer: this.customer, accountId: customer.id, item: this.item, quantity: this.quantity, unitPrice: this.price, what });
  }
  toString() {
    return `customer ${this.customer} asks for a quote of ${this.quantity} of item ${this.item}, priced at R${this.price}`;
  }
}

/** The quote's customer accepts it with `taps` calls at once: one order, whatever the number. */
class AcceptQuote extends Step {
  constructor(
    readonly pick: number,
    readonly taps: number,
  ) {
    super();
  }
  override precondition(model: Readonly<ShopModel>) {
    return model.quotes.length > 0;
  }
  async step(model: ShopModel, real: RealShop) {
    const quote = quoteOf(model, this.pick);
    const what = String(this);
    const results = await Promise.all(
      Array.from({ length: this.taps }, (_, tap) => asCustomer(real, quote.customer, `${what} (tap ${tap + 1})`, (caller) => caller.quotes.accept({ quoteId: quote.quoteId, purchaseOrder: "" }))),
    );
    for (const result of results) this.expectAnswer(model, quote, result, what);
    const first = results[0]!;
    if (!first.ok || quote.status === "accepted") return;
    const { orderId, reference } = first.value;
    const product = itemProduct(model, quote.item);
    const variant = itemVariant(model, quote.item);
    const counted = !product.deleted && variant.stock !== null;
    if (counted) variant.stock! -= quote.quantity;
    model.orders.push({
      id: orderId,
      reference,
      idempotencyKey: quote.quoteId,
      accountId: quote.accountId,
      status: "pending_payment",
      totalCents: quote.unitCents * BigInt(quote.quantity),
      lines: [{ item: quote.item, name: quote.name, unitCents: quote.unitCents, quantity: quote.quantity, stockTaken: counted ? quote.quantity : 0 }],
      ageDays: 0,
    });
    quote.status = "accepted";
    quote.reference = reference;
  }
  private expectAnswer(model: ShopModel, quote: ModelQuote, result: Answer<{ orderId: string; reference: string; message: string }>, what: string) {
    if (gate(model, quote, result, what)) return;
    if (quote.status === "accepted") {
      expect(expectOk(result, what).reference, `${what}: the first acceptance's order`).toBe(quote.reference);
      return;
    }
    const closed = closedRefusal(quote);
    if (closed) return expectRefused(result, what, "CONFLICT", closed);
    const product = itemProduct(model, quote.item);
    if (!product.deleted && !product.available) return expectRefused(result, what, "BAD_REQUEST", quoteMessages.productUnavailable);
    const stock = product.deleted ? null : itemVariant(model, quote.item).stock;
    if (stock !== null && stock < quote.quantity) return expectRefused(result, what, "CONFLICT", quoteMessages.notEnoughStock(quote.name, stock));
    const answered = expectOk(result, what);
    expect(answered.message, what).toBe(quoteMessages.accepted(answered.reference));
  }
  toString() {
    return `the customer of quote #${this.pick} accepts it with ${this.taps} taps`;
  }
}

class DeclineQuote extends Step {
  constructor(readonly pick: number) {
    super();
  }
  override precondition(model: Readonly<ShopModel>) {
    return model.quotes.length > 0;
  }
  async step(model: ShopModel, real: RealShop) {
    const quote = quoteOf(model, this.pick);
    const what = String(this);
    const result = await asCustomer(real, quote.customer, what, (caller) => caller.quotes.decline({ quoteId: quote.quoteId, reason: "Too dear for us." }));
    if (gate(model, quote, result, what)) return;
    const closed = closedRefusal(quote);
    if (closed) return expectRefused(result, what, "CONFLICT", closed);
    expect(expectOk(result, what), what).toEqual({ message: quoteMessages.declined });
    quote.status = "declined";
  }
  toString() {
    return `the customer of quote #${this.pick} declines it`;
  }
}

/** The customer asks for a change; the admin sends a revision at `price` (the version before is superseded). */
class ReviseQuote extends Step {
  constructor(
    readonly pick: number,
    readonly price: string,
  ) {
    super();
  }
  override precondition(model: Readonly<ShopModel>) {
    return model.quotes.length > 0;
  }
  async step(model: ShopModel, real: RealShop) {
    const quote = quoteOf(model, this.pick);
    const what = String(this);
    const result = await asCustomer(real, quote.customer, what, (caller) => caller.quotes.askChange({ quoteId: quote.quoteId, message: "A little less, please?" }));
    if (gate(model, quote, result, what)) return;
    const closed = closedRefusal(quote);
    if (closed) return expectRefused(result, what, "CONFLICT", closed);
    expect(expectOk(result, what), what).toEqual({ message: quoteMessages.changeAsked });
    await priceAndSend(model, real, { ...quote, unitPrice: this.price, what });
  }
  toString() {
    return `the customer of quote #${this.pick} asks for a change; the admin revises it at R${this.price}`;
  }
}

/** Time passes: the quote's validity date is behind it (the freeze set aside, as the clock would). */
class QuoteExpires extends Step {
  constructor(readonly pick: number) {
    super();
  }
  override precondition(model: Readonly<ShopModel>) {
    return model.quotes.length > 0;
  }
  async step(model: ShopModel, real: RealShop) {
    const quote = quoteOf(model, this.pick);
    await real.db.kysely.transaction().execute(async (trx) => {
      await sql`alter table public.quotes disable trigger quotes_frozen`.execute(trx);
      await sql`update public.quotes set valid_until = (now() at time zone 'Africa/Johannesburg')::date - 1 where id = ${quote.quoteId}::uuid`.execute(trx);
      await sql`alter table public.quotes enable trigger quotes_frozen`.execute(trx);
    });
    quote.expired = true;
  }
  toString() {
    return `time passes: quote #${this.pick} expires`;
  }
}

/** The other customer tries to accept someone else's quote: it does not exist for them; nothing changes. */
class OtherCustomerAccepts extends Step {
  constructor(readonly pick: number) {
    super();
  }
  override precondition(model: Readonly<ShopModel>) {
    return model.quotes.length > 0;
  }
  async step(model: ShopModel, real: RealShop) {
    const quote = quoteOf(model, this.pick);
    const other = (quote.customer + 1) % CUSTOMERS;
    const what = String(this);
    const result = await asCustomer(real, other, what, (caller) => caller.quotes.accept({ quoteId: quote.quoteId, purchaseOrder: "" }));
    if (signedOut(model.customers[other]!)) return expectSignInRequired(result, what);
    expectRefused(result, what, "NOT_FOUND", quoteMessages.notFound);
  }
  toString() {
    return `the other customer tries to accept quote #${this.pick}`;
  }
}

/** The quote commands, weighted for shopCommands' one choice. */
export function quoteCommands(weighted: (weight: number, arbitrary: fc.Arbitrary<ShopCommand>) => { weight: number; arbitrary: fc.Arbitrary<ShopCommand> }) {
  return [
    weighted(3, fc.tuple(customer, quoteItem, fc.integer({ min: 1, max: 3 }), quotePrice).map(([c, i, quantity, price]) => new AskForQuote(c, i, quantity, price))),
    weighted(3, fc.tuple(fc.nat(), fc.constantFrom(1, 1, 3, 8)).map(([pick, taps]) => new AcceptQuote(pick, taps))),
    weighted(1, fc.nat().map((pick) => new DeclineQuote(pick))),
    weighted(2, fc.tuple(fc.nat(), quotePrice).map(([pick, price]) => new ReviseQuote(pick, price))),
    weighted(1, fc.nat().map((pick) => new QuoteExpires(pick))),
    weighted(1, fc.nat().map((pick) => new OtherCustomerAccepts(pick))),
  ];
}
