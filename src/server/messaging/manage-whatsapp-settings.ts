import { messages } from "@/lib/messages";
import type { TRPCContext } from "@/server/api/trpc";
import type { WhatsAppSettingsValues } from "./schemas";
import { adminViewOf, savedFromEnvironment, type AdminWhatsAppSettings, type SavedWhatsApp } from "./whatsapp-settings";
import { readSavedWhatsApp, saveWhatsApp } from "./whatsapp-settings-queries";

const m = messages.whatsappSettings;

type Ctx = Pick<TRPCContext, "db" | "whatsapp">;

/** messaging.settings: the admins' view (RLS: admins only): never the token or secrets themselves. */
export async function getWhatsAppSettings({ ctx }: { ctx: Ctx }): Promise<AdminWhatsAppSettings> {
  return adminViewOf(await ctx.db.transaction((trx) => readSavedWhatsApp(trx)), ctx.whatsapp.environment);
}

/**
 * messaging.updateSettings (RLS: admins only). A secret left blank keeps the current one: the
 * saved one, or the environment's while nothing is saved (so the first save keeps a deployment's
 * WHATSAPP_* here). Every process uses the new settings at once: this one drops what it kept,
 * the others hear of the change from the database.
 */
export async function updateWhatsAppSettings({ ctx, input }: { ctx: Ctx; input: WhatsAppSettingsValues }): Promise<{ message: string; values: AdminWhatsAppSettings }> {
  const saved = await ctx.db.transaction(async (trx) => {
    const current = (await readSavedWhatsApp(trx)) ?? savedFromEnvironment(ctx.whatsapp.environment);
    const values: SavedWhatsApp = {
      enabled: input.enabled,
      phoneNumberId: input.phoneNumberId,
      accessToken: input.accessToken || current.accessToken,
      appSecret: input.appSecret || current.appSecret,
      verifyToken: input.verifyToken || current.verifyToken,
      ownerPhone: input.ownerPhone,
      ownerAlerts: input.ownerAlerts,
    };
    await saveWhatsApp(trx, values);
    return values;
  });
  ctx.whatsapp.changed();
  const view = adminViewOf(saved, ctx.whatsapp.environment);
  return { message: view.enabled && !view.on ? m.savedIncomplete : m.saved, values: view };
}
