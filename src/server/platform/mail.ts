import { drainOutbox } from "@/server/mail/outbox";
import { mailShopFrom } from "@/server/mail/shop";
import type { MailShop } from "@/server/mail/schemas";
import { getShopProcess, type ShopProcess } from "./shop-process";

/** The shop's name, address and links as this process's mails state them (from the shop settings). */
export function mailShopOf(shop: ShopProcess): () => Promise<MailShop> {
  return async () => mailShopFrom(await shop.settings.published());
}

/** Whether mails are sent at all (SMTP_URL), or only kept in the outbox. */
export async function mailIsSent(): Promise<boolean> {
  return (await getShopProcess()).config.mail.kind === "smtp";
}

/** Delivers the outbox once, until nothing is due: the serverless schedule's route. */
export async function drainMailOutbox() {
  const shop = await getShopProcess();
  return drainOutbox({ db: shop.database.kysely, transport: shop.config.mail, shop: mailShopOf(shop) });
}
