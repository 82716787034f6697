import type { Tx } from "@/server/db/as-caller";
import type { SavedWhatsApp } from "./whatsapp-settings";

/** The saved settings (RLS: admins only; the service role for the server), or null while none are saved. */
export async function readSavedWhatsApp(trx: Tx): Promise<SavedWhatsApp | null> {
  const row = await trx
    .selectFrom("whatsapp_settings")
    .select(["enabled", "phone_number_id", "access_token", "app_secret", "verify_token", "owner_phone", "owner_alerts"])
    .where("id", "=", true)
    .executeTakeFirst();
  if (!row) return null;
  return {
    enabled: row.enabled,
    phoneNumberId: row.phone_number_id,
    accessToken: row.access_token,
    appSecret: row.app_secret,
    verifyToken: row.verify_token,
    ownerPhone: row.owner_phone,
    ownerAlerts: row.owner_alerts,
  };
}

/** Saves the whole row (RLS: admins only). */
export async function saveWhatsApp(trx: Tx, values: SavedWhatsApp): Promise<void> {
  const row = {
    enabled: values.enabled,
    phone_number_id: values.phoneNumberId,
    access_token: values.accessToken,
    app_secret: values.appSecret,
    verify_token: values.verifyToken,
    owner_phone: values.ownerPhone,
    owner_alerts: values.ownerAlerts,
  };
  await trx
    .insertInto("whatsapp_settings")
    .values(row)
    .onConflict((conflict) => conflict.column("id").doUpdateSet(row))
    .execute();
}
