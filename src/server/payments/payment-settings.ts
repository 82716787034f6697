import { KeptValues } from "@/server/cache/kept-values";
import { perDatabase } from "@/server/cache/per-database";
import { runAs, SERVICE, type Tx } from "@/server/db/as-caller";
import { CATALOGUE_CHANNEL } from "@/server/db/channels";
import type { ShopDatabase } from "@/server/db/database";
import type { PaymentCredentials } from "@/server/ports/payments";
import type { PaymentSettingsValues } from "./schemas";

/** What the admins' form shows: the merchant id and sandbox switch, and only whether the secrets are set. */
export interface AdminPaymentSettings {
  merchantId: string;
  sandbox: boolean;
  hasMerchantKey: boolean;
  hasPassphrase: boolean;
}

const credentialsOf = (row: { payfast_merchant_id: string; payfast_merchant_key: string; payfast_passphrase: string; payfast_sandbox: boolean }): PaymentCredentials => ({
  merchantId: row.payfast_merchant_id,
  merchantKey: row.payfast_merchant_key,
  passphrase: row.payfast_passphrase,
  sandbox: row.payfast_sandbox,
});

/** The saved credentials (RLS: admins only; the service role for the server), or null while none are saved. */
export async function readCredentials(trx: Tx): Promise<PaymentCredentials | null> {
  const row = await trx
    .selectFrom("payment_settings")
    .select(["payfast_merchant_id", "payfast_merchant_key", "payfast_passphrase", "payfast_sandbox"])
    .where("id", "=", true)
    .executeTakeFirst();
  return row ? credentialsOf(row) : null;
}

export function adminViewOf(credentials: PaymentCredentials | null): AdminPaymentSettings {
  return {
    merchantId: credentials?.merchantId ?? "",
    sandbox: credentials?.sandbox ?? false,
    hasMerchantKey: Boolean(credentials?.merchantKey),
    hasPassphrase: Boolean(credentials?.passphrase),
  };
}

/** Saves the admins' form (RLS: admins only), keeping a secret left blank. */
export async function saveCredentials(trx: Tx, input: PaymentSettingsValues): Promise<PaymentCredentials> {
  const saved = await readCredentials(trx);
  const values: PaymentCredentials = {
    merchantId: input.merchantId,
    merchantKey: input.merchantKey || (input.merchantId ? (saved?.merchantKey ?? "") : ""),
    passphrase: input.clearPassphrase ? "" : input.passphrase.trim() || (saved?.passphrase ?? ""),
    sandbox: input.sandbox,
  };
  const row = {
    payfast_merchant_id: values.merchantId,
    payfast_merchant_key: values.merchantKey,
    payfast_passphrase: values.passphrase,
    payfast_sandbox: values.sandbox,
  };
  await trx
    .insertInto("payment_settings")
    .values(row)
    .onConflict((conflict) => conflict.column("id").doUpdateSet(row))
    .execute();
  return values;
}

/** Start-up: the environment's PAYFAST_* credentials for a shop that has none saved yet; never touches saved ones. */
export async function insertMissingCredentials(trx: Tx, credentials: PaymentCredentials | null): Promise<void> {
  if (!credentials) return;
  await trx
    .insertInto("payment_settings")
    .values({
      payfast_merchant_id: credentials.merchantId,
      payfast_merchant_key: credentials.merchantKey,
      payfast_passphrase: credentials.passphrase,
      payfast_sandbox: credentials.sandbox,
    })
    .onConflict((conflict) => conflict.column("id").doNothing())
    .execute();
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
