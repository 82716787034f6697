import { KeptValues } from "@/server/cache/kept-values";
import { perDatabase } from "@/server/cache/per-database";
import { runAs, SERVICE } from "@/server/db/as-caller";
import { CATALOGUE_CHANNEL } from "@/server/db/channels";
import type { ShopDatabase } from "@/server/db/database";
import type { PaymentCredentials } from "@/server/ports/payments";
import { readCredentials } from "./payment-queries";

/** What the admins' form shows: the merchant id and sandbox switch, and only whether the secrets are set. */
export interface AdminPaymentSettings {
  merchantId: string;
  sandbox: boolean;
  hasMerchantKey: boolean;
  hasPassphrase: boolean;
}

export function adminViewOf(credentials: PaymentCredentials | null): AdminPaymentSettings {
  return {
    merchantId: credentials?.merchantId ?? "",
    sandbox: credentials?.sandbox ?? false,
    hasMerchantKey: Boolean(credentials?.merchantKey),
    hasPassphrase: Boolean(credentials?.passphrase),
  };
}

/** Kept credentials are read again after this long, even if no change was heard. */
export const CREDENTIALS_TTL_MS = 60_000;

/**
 * The provider's credentials as the server signs payments and checks notifications with them:
 * read as the service role (customers and PayFast's notifications may not read them; only this
 * step needs them), kept by the process and dropped on every change (the table notifies on the
 * catalogue's channel, as the shop settings do).
 */
export interface PaymentSettings {
  /** Null while PayFast is not set up (no merchant id and key): checkout offers bank transfer only. */
  credentials(): Promise<PaymentCredentials | null>;
  changed(): void;
}

function createPaymentSettings(database: ShopDatabase): PaymentSettings {
  const kept = new KeptValues<"credentials", { value: PaymentCredentials | null }>({ max: 1, ttlMs: CREDENTIALS_TTL_MS });
  return {
    credentials: async () =>
      (
        await kept.fill("credentials", async () => {
          const saved = await runAs(database.kysely, SERVICE, (trx) => readCredentials(trx));
          return { value: saved && saved.merchantId && saved.merchantKey ? saved : null };
        })
      ).value,
    changed: () => kept.clear(),
  };
}

const paymentSettings = perDatabase<PaymentSettings>({
  channels: { [CATALOGUE_CHANNEL]: (settings) => settings.changed() },
  unheard: (settings, error) => {
    console.error("[payments] could not listen for settings changes:", error);
    return settings;
  },
});

/** The payment settings of a database (one per process and database). */
export function paymentSettingsFor(database: ShopDatabase): Promise<PaymentSettings> {
  return paymentSettings(database, () => createPaymentSettings(database));
}
