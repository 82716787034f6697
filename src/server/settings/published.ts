import type { TRPCContext } from "@/server/api/trpc";
import { bankTransferStatus, type BankTransferStatus } from "./bank-transfer";
import { DEMO_VALUES, isDemoValue } from "./demo-values";
import type { PublicShopSettings } from "./settings-queries";

/** What every page may show of the shop's settings: its contact details and policies, never its bank account. */
export interface PublishedSettings extends Pick<PublicShopSettings, "contact" | "informationOfficer" | "unpaidOrderDays"> {
  /** Whether checkout can take bank transfers (the admins' banner says so when it cannot). */
  bankTransfer: BankTransferStatus;
}

/**
 * The details pages may present as the business's own (issue 34): in production a contact detail
 * still at its demo value is left out ("" : pages show nothing for it) rather than shown as real;
 * outside production the demo shop shows them. The information officer's name is "" while it is
 * the demo stand-in, in every mode: the privacy notice then names the business as responsible.
 */
export function shownSettings(settings: Pick<PublicShopSettings, "contact" | "informationOfficer">, production: boolean) {
  const shown = (value: string, demo: string) => (production && isDemoValue(value, demo) ? "" : value);
  const { contact, informationOfficer } = settings;
  return {
    contact: {
      phone: shown(contact.phone, DEMO_VALUES.phone),
      email: shown(contact.email, DEMO_VALUES.email),
      address: shown(contact.address, DEMO_VALUES.address),
      // Worded from the opening hours, the same rows as the days checkout offers: never a placeholder.
      hours: contact.hours,
    },
    informationOfficer: {
      name: isDemoValue(informationOfficer.name, DEMO_VALUES.informationOfficerName) ? "" : informationOfficer.name,
      email: shown(informationOfficer.email, DEMO_VALUES.email),
    },
  };
}

/** The published settings, from the shop's kept copy (dropped on every change). */
export async function publishedSettings({ ctx }: { ctx: Pick<TRPCContext, "settings" | "production"> }): Promise<PublishedSettings> {
  const settings = await ctx.settings.published();
  const { contact, informationOfficer } = shownSettings(settings, ctx.production);
  return { contact, informationOfficer, unpaidOrderDays: settings.unpaidOrderDays, bankTransfer: bankTransferStatus(settings.bank, ctx.production) };
}
