import { TRPCError } from "@trpc/server";
import { quoteMessages as m } from "@/lib/messages";
import type { TRPCContext } from "@/server/api/trpc";
import type { SessionUser } from "@/server/auth/session-user";
import { fulfilmentOptions, type CheckoutFulfilment } from "@/server/fulfilment/checkout-options";
import { quoteCall } from "./quote-errors";
import { acceptQuoteRow, askQuoteChangeRow, bookableQuoteLines, declineQuoteRow, quoteDeposit, quoteFulfilmentOffer } from "./quote-queries";
import type { AcceptQuoteInput, AskQuoteChangeInput, DeclineQuoteInput, QuoteAcceptOptionsInput } from "./schemas";

type Ctx = Pick<TRPCContext, "db"> & { user: SessionUser };

/** What accepting a version asks of its customer (docs/quotes.md "Acceptance"). */
export interface QuoteAcceptOptions {
  /** Checkout's own question (configured: false where the version asks none: services only, or nothing set up). */
  fulfilment: CheckoutFulfilment;
  /** The version prices delivery itself (a custom "Delivery…" line): the area's fee is not added. */
  deliveryQuoted: boolean;
  /** Its lines of bookable services: a time is chosen for each. */
  bookings: { lineId: string; productId: string; name: string }[];
  /** What is due now and later when booked lines ask a deposit (before the delivery fee); null: the whole total now. */
  deposit: { dueNow: number; later: number } | null;
}

/**
 * quotes.acceptOptions: what accepting the caller's own sent version asks: delivery or
 * collection exactly as checkout asks it, for the version's lines (their lead times and the
 * days' capacity, in SQL), and a time for each booked line.
 */
export async function quoteAcceptOptions({ ctx, input }: { ctx: Ctx; input: QuoteAcceptOptionsInput }): Promise<QuoteAcceptOptions> {
  return ctx.db.transaction(async (trx) => {
    const offer = await quoteFulfilmentOffer(trx, input.quoteId);
    if (!offer) throw new TRPCError({ code: "NOT_FOUND", message: m.notFound });
    const fulfilment = await fulfilmentOptions(trx, ctx.user.id, async () => offer.days, offer.asks);
    return { fulfilment, deliveryQuoted: offer.deliveryQuoted, bookings: await bookableQuoteLines(trx, input.quoteId), deposit: await quoteDeposit(trx, input.quoteId) };
  });
}

/**
 * quotes.accept: accept_quote() checks the version and its validity date at this moment and
 * places its one order at the quoted prices, with the delivery or collection choice and the
 * booked times; a second tap, tab or retry gets the same order.
 * The customer then pays it from the order's page, as any order.
 */
export async function acceptQuote({ ctx, input }: { ctx: Ctx; input: AcceptQuoteInput }): Promise<{ orderId: string; reference: string; message: string }> {
  const order = await quoteCall(() => ctx.db.transaction((trx) => acceptQuoteRow(trx, input)));
  // Booked services without a deposit and nothing else due: placed as Pending Delivery.
  const message = order.status === "pending_delivery" ? m.acceptedNothingDue(order.reference) : m.accepted(order.reference);
  return { orderId: order.id, reference: order.reference, message };
}

/** quotes.decline: the customer's open version declined, with the reason. */
export async function declineQuote({ ctx, input }: { ctx: Ctx; input: DeclineQuoteInput }): Promise<{ message: string }> {
  await quoteCall(() => ctx.db.transaction((trx) => declineQuoteRow(trx, input)));
  return { message: m.declined };
}

/** quotes.askChange: a message back to the shop about the open version (mailed to the shop). */
export async function askQuoteChange({ ctx, input }: { ctx: Ctx; input: AskQuoteChangeInput }): Promise<{ message: string }> {
  await quoteCall(() => ctx.db.transaction((trx) => askQuoteChangeRow(trx, input)));
  return { message: m.changeAsked };
}
