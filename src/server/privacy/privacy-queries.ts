import { sql, type Kysely } from "kysely";
import type { DB } from "@/server/db/schema";

/** public.purge_expired_records() (the server's own connection): the deleted orders' proof paths, one row per order. */
export async function purgeExpired(db: Kysely<DB>): Promise<{ proof_path: string | null }[]> {
  const { rows } = await sql<{ proof_path: string | null }>`select proof_path from public.purge_expired_records()`.execute(db);
  return rows;
}
