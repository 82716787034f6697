import { messages } from "@/lib/messages";
import type { TRPCContext } from "@/server/api/trpc";
import { bankTransferStatus } from "./bank-transfer";
import { settingsFromEnv } from "./defaults";
import { publicSettingsOf, readAdminSettings, saveSettings } from "./settings-queries";
import type { ShopSettingsValues } from "./schemas";

const m = messages.settings;

type Ctx = Pick<TRPCContext, "db" | "catalogue" | "settings" | "production">;

/** Every setting for the admins' form, and whether checkout can take orders with the saved bank account. */
export async function getSettings({ ctx }: { ctx: Ctx }) {
  const settings = await ctx.db.transaction((trx) => readAdminSettings(trx, settingsFromEnv()));
  return { ...settings, bankTransfer: bankTransferStatus(publicSettingsOf(settings.values).bank, ctx.production) };
}

/** Saves the settings (RLS: admins only) and drops every cached copy, so the shop shows them at once. */
export async function updateSettings({ ctx, input }: { ctx: Ctx; input: ShopSettingsValues }) {
  await ctx.db.transaction((trx) => saveSettings(trx, input));
  // This process shows them at once: its kept settings, and the kept pages (the footer has them).
  ctx.settings.changed();
  ctx.catalogue.changed();
  // The values as stored (account number without spaces...), for the form to show.
  return { message: m.saved, values: input };
}
