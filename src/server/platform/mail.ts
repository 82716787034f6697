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

/** The WhatsApp channel of this process (docs/whatsapp.md), or none without its settings. */
export function whatsappChannelOf(shop: ShopProcess): MessagingChannel | undefined {
  return shop.config.whatsapp ? createWhatsAppChannel(shop.config.whatsapp, shop.config.fetch) : undefined;
}

/** Whether mails are sent at all (SMTP_URL), or only kept in the outbox. */
export async function mailIsSent(): Promise<boolean> {
  return (await getShopProcess()).config.mail.kind === "smtp";
}

/** Delivers the outbox once, until nothing is due: the serverless schedule's route. */
export async function drainMailOutbox() {
  const shop = await getShopProcess();
  return drainOutbox({ db: shop.database.kysely, transport: shop.config.mail, whatsapp: whatsappChannelOf(shop), shop: mailShopOf(shop) });
}
