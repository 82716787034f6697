import { env } from "@/env";
import type { PublicShopSettings } from "@/server/settings/settings-queries";
import { site } from "@/server/settings/site";
import type { MailShop } from "./schemas";

/** The shop's public origin for links in mails (SITE_URL; the local server outside production). */
export function siteUrl(): string {
  return env.SITE_URL ?? `http://localhost:${process.env.PORT ?? 3000}`;
}

/** What the mail templates show of the shop: its name, links, contact and bank account from the settings. */
export function mailShopFrom(settings: PublicShopSettings): MailShop {
  return { name: site.name, siteUrl: siteUrl(), email: settings.contact.email, phone: settings.contact.phone, bank: settings.bank };
}
