import { TRPCError } from "@trpc/server";
import { messages } from "@/lib/messages";
import type { TRPCContext } from "@/server/api/trpc";
import type { OnlinePayments } from "./online-payments";
import { readCredentials, saveCredentials } from "./payment-queries";
import { adminViewOf, type AdminPaymentSettings } from "./payment-settings";
import type { PaymentSettingsValues } from "./schemas";

const m = messages.payments;

type Ctx = Pick<TRPCContext, "db"> & { payments: OnlinePayments };

/** payments.settings: the admins' view (RLS: admins only): never the key or passphrase themselves. */
export async function getPaymentSettings({ ctx }: { ctx: Ctx }): Promise<AdminPaymentSettings> {
  return adminViewOf(await ctx.db.transaction((trx) => readCredentials(trx)));
}

/** payments.updateSettings (RLS: admins only); checkout offers or stops offering "Pay now" at once. */
export async function updatePaymentSettings({ ctx, input }: { ctx: Ctx; input: PaymentSettingsValues }): Promise<{ message: string; values: AdminPaymentSettings }> {
  const saved = await ctx.db.transaction(async (trx) => {
    const current = await readCredentials(trx);
    // A merchant id needs its key: one saved before, or one given now.
    if (input.merchantId && !input.merchantKey && !current?.merchantKey) return null;
    return saveCredentials(trx, input);
  });
  if (!saved) throw new TRPCError({ code: "BAD_REQUEST", message: m.merchantKeyRequired });
  // This process offers (or stops offering) "Pay now" at once; others hear it from the database.
  ctx.payments.settings.changed();
  return { message: m.settingsSaved, values: adminViewOf(saved) };
}
