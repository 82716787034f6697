import { KeptValues } from "@/server/cache/kept-values";
import { perDatabase } from "@/server/cache/per-database";
import { ANON, runAs } from "@/server/db/as-caller";
import { CATALOGUE_CHANNEL } from "@/server/db/channels";
import type { ShopDatabase } from "@/server/db/database";
import { settingsFromEnv } from "./defaults";
import { publicSettingsOf, readPublicSettings, type PublicShopSettings } from "./settings-queries";

/** Kept settings are read again after this long, even if no change was heard (a lost notification). */
export const SETTINGS_TTL_MS = 60_000;

/**
 * The shop's published settings (docs/architecture.md#shop-settings: bank account, contact details, information
 * officer, unpaid-order days) as checkout, the mails, the footer and the policies read them: the
 * environment's values while the shop has no settings row yet. Read as `anon` (the same for
 * everyone) and kept by the process; dropped on every change any process makes (the settings
 * trigger notifies on the catalogue's channel) and at once by the process that made it.
 */
export interface ShopSettings {
  published(): Promise<PublicShopSettings>;
  /** Drops the kept copy (after a change this process made). */
  changed(): void;
}

function createShopSettings(database: ShopDatabase): ShopSettings {
  const kept = new KeptValues<"published", PublicShopSettings>({ max: 1, ttlMs: SETTINGS_TTL_MS });
  return {
    published: () =>
      kept.fill("published", async () => (await runAs(database.kysely, ANON, (trx) => readPublicSettings(trx))) ?? publicSettingsOf(settingsFromEnv())),
    changed: () => kept.clear(),
  };
}

const shopSettings = perDatabase<ShopSettings>({
  channels: { [CATALOGUE_CHANNEL]: (settings) => settings.changed() },
  unheard: (settings, error) => {
    // Without notifications the kept copy still expires after SETTINGS_TTL_MS.
    console.error("[settings] could not listen for settings changes:", error);
    return settings;
  },
});

/** The settings of a database (one per process and database), listening for changes from the first use on. */
export function shopSettingsFor(database: ShopDatabase): Promise<ShopSettings> {
  return shopSettings(database, () => createShopSettings(database));
}
