import "server-only";

import type { InformationOfficer, ShopFacts } from "@/lib/business-content";
import { caller } from "@/trpc/caller";
import { site } from "@/server/settings/site";

/** The business's facts the legal pages quote, from the shop settings (docs/architecture.md#shop-settings). */
export async function shopFacts(): Promise<ShopFacts> {
  const settings = await caller.settings.published();
  return { name: site.name, ...settings.contact, unpaidOrderDays: settings.unpaidOrderDays };
}

/**
 * Who answers privacy requests: POPIA's information officer, named on /privacy, from the shop
 * settings; no name while none is set (the notice then names the business as responsible), and the
 * shop's own email when the officer's is a demo value left out.
 */
export async function informationOfficer(): Promise<InformationOfficer> {
  const settings = await caller.settings.published();
  return {
    name: settings.informationOfficer.name,
    email: settings.informationOfficer.email || settings.contact.email,
    phone: settings.contact.phone,
    address: settings.contact.address,
  };
}
