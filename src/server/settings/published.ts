import type { TRPCContext } from "@/server/api/trpc";
import { bankTransferStatus, type BankTransferStatus } from "./bank-transfer";
import type { PublicShopSettings } from "./queries";

/** What every page may show of the shop's settings: its contact details and policies, never its bank account. */
export interface PublishedSettings extends Pick<PublicShopSettings, "contact" | "informationOfficer" | "unpaidOrderDays"> {
  /** Whether checkout can take bank transfers (the admins' banner says so when it cannot). */
  bankTransfer: BankTransferStatus;
}

/** The published settings, from the shop's kept copy (dropped on every change). */
export async function publishedSettings({ ctx }: { ctx: Pick<TRPCContext, "settings" | "production"> }): Promise<PublishedSettings> {
  const { contact, informationOfficer, unpaidOrderDays, bank } = await ctx.settings.published();
  return { contact, informationOfficer, unpaidOrderDays, bankTransfer: bankTransferStatus(bank, ctx.production) };
}
