import { TRPCError } from "@trpc/server";
import { quoteMessages as m } from "@/lib/messages";
import type { TRPCContext } from "@/server/api/trpc";
import { site } from "@/server/settings/site";
import { renderQuotePdf } from "./quote-pdf";
import { findQuoteForPrint } from "./quote-queries";
import type { QuotePdfInput } from "./schemas";

type Ctx = Pick<TRPCContext, "db" | "settings">;

/**
 * quotes.pdf: a sent version as a PDF, for its customer or an admin (RLS; anyone else's, or a
 * draft, is NOT_FOUND). Drawn from the version's frozen lines, so it always says what was sent.
 */
export async function quotePdf({ ctx, input }: { ctx: Ctx; input: QuotePdfInput }): Promise<{ fileName: string; pdf: Buffer }> {
  const quote = await ctx.db.transaction((trx) => findQuoteForPrint(trx, input.quoteId));
  if (!quote) throw new TRPCError({ code: "NOT_FOUND", message: m.notFound });
  const { contact } = await ctx.settings.published();
  const pdf = await renderQuotePdf({
    number: quote.number,
    version: quote.version,
    sentAt: new Date(quote.sentAt).toISOString(),
    validUntil: quote.valid_until,
    seller: { name: site.name, email: contact.email, phone: contact.phone, address: contact.address },
    buyer: { name: quote.customer_name, email: quote.customer_email, company: quote.company_name, vatNumber: quote.vat_number },
    lines: quote.lines.map((line) => ({ description: line.description, quantity: line.quantity, unitPrice: Number(line.unit_price) })),
    total: Number(quote.total),
    terms: quote.terms,
    note: quote.note,
  });
  const suffix = quote.version > 1 ? `-v${quote.version}` : "";
  return { fileName: `${quote.number}${suffix}.pdf`, pdf };
}
