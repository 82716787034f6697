import { quoteMessages as m } from "@/lib/messages";
import type { TRPCContext } from "@/server/api/trpc";
import { quoteCall } from "./quote-errors";
import { saveQuoteDraftRow, sendQuoteRow } from "./quote-queries";
import type { SaveQuoteDraftInput, SendQuoteInput } from "./schemas";

type Ctx = Pick<TRPCContext, "db">;

/** adminQuotes.saveDraft: the request's next version as a draft, created or replaced whole (save_quote_draft()). */
export async function saveQuoteDraft({ ctx, input }: { ctx: Ctx; input: SaveQuoteDraftInput }): Promise<{ quoteId: string; message: string }> {
  const quoteId = await quoteCall(() => ctx.db.transaction((trx) => saveQuoteDraftRow(trx, input)));
  return { quoteId, message: m.draftSaved };
}

/** adminQuotes.send: the draft sent (numbered, frozen, the previous version superseded, the customer mailed). */
export async function sendQuote({ ctx, input }: { ctx: Ctx; input: SendQuoteInput }): Promise<{ quoteId: string; number: string; message: string }> {
  const sent = await quoteCall(() => ctx.db.transaction((trx) => sendQuoteRow(trx, input.quoteId)));
  return { quoteId: sent.id, number: sent.number, message: m.sent(sent.number) };
}
