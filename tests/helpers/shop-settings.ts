import { settingsFromEnv } from "@/server/settings/defaults";
import type { ShopSettingsValues } from "@/server/settings/schemas";

/** A bank account that is not the demo placeholder (a made-up one). */
export const CONFIGURED_BANK = { bankName: "Capitec Bank", bankAccountNumber: "1051234567", bankBranchCode: "470010", bankAccountType: "Savings" } as const;

/**
 * The settings of a shop whose owner has entered a real bank account: what the harnesses that run
 * the production build (browser tests, benchmarks, fault injection) seed, so that checkout takes
 * orders there as it would in a shop that is set up.
 */
export function configuredShopSettings(): ShopSettingsValues {
  return { ...settingsFromEnv(), ...CONFIGURED_BANK };
}
