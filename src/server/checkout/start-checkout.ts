import type { TRPCContext } from "@/server/api/trpc";
import { bankTransferStatus } from "@/server/settings/bank-transfer";
import { openCheckoutReference } from "./checkout-queries";

/**
 * What the checkout page shows: the customer's reserved reference and the shop's bank account
 * from its settings, and whether "Pay now" (PayFast) is offered; `bankTransfer` says whether orders can be taken with it ("not_set_up": the
 * demo account in production, shown to nobody) or only as a demo.
 */
export async function startCheckout({ ctx }: { ctx: Pick<TRPCContext, "db" | "settings" | "production" | "payments"> }) {
  const settings = await ctx.settings.published();
  const bankTransfer = bankTransferStatus(settings.bank, ctx.production);
  const reference = await ctx.db.transaction((trx) => openCheckoutReference(trx));
  // "Pay now" is offered while the owner has PayFast set up in Shop settings (docs/architecture.md#payments).
  const payNow = (await ctx.payments.settings.credentials()) !== null;
  return bankTransfer === "not_set_up"
    ? { reference, bankTransfer, bank: null, payNow }
    : { reference, bankTransfer, bank: settings.bank, payNow };
}
