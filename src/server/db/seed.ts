import fs from "node:fs";
import path from "node:path";
import { sql, type Kysely } from "kysely";
import { paymentCredentialsFromEnv } from "@/server/payments/defaults";
import { insertMissingCredentials } from "@/server/payments/payment-queries";
import type { PaymentCredentials } from "@/server/ports/payments";
import { invoiceSettingsFromEnv } from "@/server/invoices/defaults";
import { insertMissingInvoiceSettings } from "@/server/invoices/invoice-queries";
import { settingsFromEnv } from "@/server/settings/defaults";
import { insertMissingSettings } from "@/server/settings/settings-queries";
import type { ShopSettingsValues } from "@/server/settings/schemas";
import type { DB } from "./schema";
import { execScript } from "./database";

export const CATALOGUE_SEED = "supabase/seed.sql";
export const DEMO_USERS_SEED = "supabase/seed-demo-users.sql";

export interface SeedOptions {
  /** Also create the demo admin and customer (development only, never production). */
  demoUsers: boolean;
  /** The shop settings a shop without them starts with; default: SHOP_*, BANK_* (settingsFromEnv). */
  settings?: ShopSettingsValues;
  /** PayFast's credentials a shop without them starts with; default: PAYFAST_* (null: none). */
  payments?: PaymentCredentials | null;
  root?: string;
}

/**
 * Local modes: gives a brand-new database the demo catalogue (the same supabase/seed.sql that
 * `supabase start` runs), once. A shop whose owner later deletes every product is not re-seeded.
 * The shop settings are created from the environment on every start where they are missing (a
 * shop seeded before they existed gets them too), never over what the owner saved; first, so
 * seed.sql's demo settings (for Supabase) do not take their place.
 */
export async function seedOnce(db: Kysely<DB>, options: SeedOptions): Promise<{ seeded: boolean }> {
  const root = options.root ?? process.cwd();
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtextextended('shop_meta.seed', 0))`.execute(trx);
    await execScript(
      trx,
      `create table if not exists shop_meta.seeds (
         name text primary key,
         seeded_at timestamptz not null default now()
       );`,
    );
    const { rows } = await sql<{ name: string }>`select name from shop_meta.seeds`.execute(trx);
    const done = new Set(rows.map((row) => row.name));
    let seeded = await insertMissingSettings(trx, options.settings ?? settingsFromEnv());
    await insertMissingCredentials(trx, options.payments === undefined ? paymentCredentialsFromEnv() : options.payments);
    // Invoices (issue 26): SHOP_VAT_NUMBER, SHOP_LEGAL_NAME, SHOP_LEGAL_ADDRESS, INVOICE_PREFIX.
    seeded = (await insertMissingInvoiceSettings(trx, invoiceSettingsFromEnv())) || seeded;
    if (!done.has("catalogue")) {
      await execScript(trx, fs.readFileSync(path.join(root, CATALOGUE_SEED), "utf8"));
      await sql`insert into shop_meta.seeds (name) values ('catalogue')`.execute(trx);
      seeded = true;
    }
    if (options.demoUsers && !done.has("demo_users")) {
      await execScript(trx, fs.readFileSync(path.join(root, DEMO_USERS_SEED), "utf8"));
      await sql`insert into shop_meta.seeds (name) values ('demo_users')`.execute(trx);
      seeded = true;
    }
    return { seeded };
  });
}
