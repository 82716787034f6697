import { quoteMessages as m } from "@/lib/messages";
import type { TRPCContext } from "@/server/api/trpc";
import type { SessionUser } from "@/server/auth/session-user";
import { quoteCall } from "./quote-errors";
import { acceptQuoteRow, askQuoteChangeRow, declineQuoteRow } from "./quote-queries";
import type { AcceptQuoteInput, AskQuoteChangeInput, DeclineQuoteInput } from "./schemas";

type Ctx = Pick<TRPCContext, "db"> & { user: SessionUser };

/**
 * quotes.accept: accept_quote() checks the version and its validity date at this moment and
 * places its one order at the quoted prices; a second tap, tab or retry gets the same order.
 * The customer then pays it from the order's page, as any order.
 */
export async function acceptQuote({ ctx, input }: { ctx: Ctx; input: AcceptQuoteInput }): Promise<{ orderId: string; reference: string; message: string }> {
  const order = await quoteCall(() => ctx.db.transaction((trx) => acceptQuoteRow(trx, input)));
  return { orderId: order.id, reference: order.reference, message: m.accepted(order.reference) };
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
