import { TRPCError } from "@trpc/server";
import { invoiceMessages as m } from "@/lib/messages";
import type { TRPCContext } from "@/server/api/trpc";
import { invoiceSettingsFromEnv } from "./defaults";
import { renderInvoicePdf } from "./invoice-pdf";
import { findInvoice, listOrderInvoices, readInvoiceDetails, readInvoiceSettings, recordDownload, saveInvoiceDetails, saveInvoiceSettings } from "./invoice-queries";
import type { InvoiceDetailsValues, InvoiceSettingsValues } from "./schemas";
import { invoiceSnapshot } from "./snapshot";

type Ctx = Pick<TRPCContext, "db">;
type SignedInCtx = Ctx & { user: { id: string } } & Partial<Pick<TRPCContext, "production">>;

/** The invoice settings for the admins' form (the environment's while none are saved). */
export async function getInvoiceSettings({ ctx }: { ctx: Ctx }) {
  return ctx.db.transaction((trx) => readInvoiceSettings(trx, invoiceSettingsFromEnv()));
}

/** Saves the invoice settings (RLS: admins only). Issued invoices keep the values they were issued with. */
export async function updateInvoiceSettings({ ctx, input }: { ctx: Ctx; input: InvoiceSettingsValues }) {
  await ctx.db.transaction((trx) => saveInvoiceSettings(trx, input));
  return { message: m.saved, values: input };
}

/** The caller's company name, address and VAT number for their invoices. */
export function myInvoiceDetails({ ctx }: { ctx: SignedInCtx }) {
  return ctx.db.transaction((trx) => readInvoiceDetails(trx, ctx.user.id));
}

/** Saves the caller's invoice details on their profile; invoices issued from now on print them. */
export async function saveMyInvoiceDetails({ ctx, input }: { ctx: SignedInCtx; input: InvoiceDetailsValues }) {
  const saved = await ctx.db.transaction((trx) => saveInvoiceDetails(trx, ctx.user.id, input));
  if (!saved) throw new TRPCError({ code: "NOT_FOUND", message: m.detailsSaveFailed });
  return { message: m.detailsSaved, values: input };
}

/** An order's invoices and credit notes (RLS: the order's owner and admins; nothing for anyone else). */
export function orderInvoices({ ctx, input }: { ctx: Ctx; input: { orderId: string } }) {
  return ctx.db.transaction((trx) => listOrderInvoices(trx, input.orderId));
}

/**
 * One invoice or credit note as a PDF, drawn from its snapshot, for its order's owner or an
 * admin (RLS; anyone else gets NOT_FOUND, never a hint that it exists). The download is
 * recorded in the same transaction: every one after the first is marked "Copy". Drawn inside it,
 * so a failed drawing records nothing.
 */
export async function downloadInvoice({ ctx, input }: { ctx: SignedInCtx; input: { id: string } }) {
  const result = await ctx.db.transaction(async (trx) => {
    const invoice = await findInvoice(trx, input.id);
    if (!invoice) return null;
    const downloads = await recordDownload(trx, invoice.id);
    const snapshot = invoiceSnapshot.parse(invoice.snapshot);
    const pdf = await renderInvoicePdf(snapshot, { copy: downloads > 1, production: ctx.production });
    return { fileName: `${invoice.number.replace(/[^A-Za-z0-9-]/g, "-")}.pdf`, pdf, copy: downloads > 1 };
  });
  if (!result) throw new TRPCError({ code: "NOT_FOUND", message: m.notFound });
  return result;
}
