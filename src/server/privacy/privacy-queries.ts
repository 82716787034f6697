import { sql, type Kysely } from "kysely";
import type { DB } from "@/server/db/schema";

/** public.purge_expired_records() (the server's own connection): the deleted orders' proof paths (and their balances'), one row per order. */
export async function purgeExpired(db: Kysely<DB>): Promise<{ proof_path: string | null; balance_proof_path: string | null }[]> {
  const { rows } = await sql<{ proof_path: string | null; balance_proof_path: string | null }>`
    select proof_path, balance_proof_path from public.purge_expired_records()`.execute(db);
  return rows;
}

/** public.unused_personalisation_files() (the server's own connection): files no cart or order line names, a week on. */
export async function unusedPersonalisationFiles(db: Kysely<DB>): Promise<string[]> {
  const { rows } = await sql<{ path: string }>`select path from public.unused_personalisation_files()`.execute(db);
  return rows.map((row) => row.path);
}
