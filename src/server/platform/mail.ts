import { drainOutbox } from "@/server/mail/outbox";
import { mailShopFrom } from "@/server/mail/shop";
import type { MailShop } from "@/server/mail/schemas";
import type { MessagingChannel } from "@/server/ports/messaging";
import { createWhatsAppChannel } from "./adapters/whatsapp/cloud-api";
import { getShopProcess, type ShopProcess } from "./shop-process";

/** The shop's name, address and links as this process's mails state them (from the shop settings). */
export function mailShopOf(shop: ShopProcess): () => Promise<MailShop> {
  return async () => mailShopFrom(await shop.settings.published());
}

/** The WhatsApp channel with the settings in force now (docs/whatsapp.md: Shop settings, else WHATSAPP_*), or none while it is off. */
export async function whatsappChannelOf(shop: ShopProcess): Promise<MessagingChannel | undefined> {
  const { settings } = await shop.whatsapp.current();
  return settings ? createWhatsAppChannel(settings, shop.config.fetch) : undefined;
}

/** Whether mails are sent at all (SMTP_URL), or only kept in the outbox. */
export async function mailIsSent(): Promise<boolean> {
  return (await getShopProcess()).config.mail.kind === "smtp";
}

/** Delivers the outbox once, until nothing is due: the serverless schedule's route. */
export async function drainMailOutbox() {
  const shop = await getShopProcess();
  return drainOutbox({ db: shop.database.kysely, transport: shop.config.mail, whatsapp: await whatsappChannelOf(shop), shop: mailShopOf(shop) });
}
