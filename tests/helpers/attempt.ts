import { runAs, type DbIdentity, type Tx } from "@/server/db/as-caller";
import type { ShopDatabase } from "@/server/db/database";

class Rollback extends Error {}

export interface Attempt<T> {
  ok: boolean;
  value?: T;
  error?: unknown;
}

/** Runs `work` as `identity` and rolls everything back, reporting whether it succeeded. */
export async function attempt<T>(db: ShopDatabase, identity: DbIdentity, work: (trx: Tx) => Promise<T>): Promise<Attempt<T>> {
  let value: T | undefined;
  try {
    await runAs(db.kysely, identity, async (trx) => {
      value = await work(trx);
      throw new Rollback();
    });
  } catch (error) {
    if (error instanceof Rollback) return { ok: true, value };
    return { ok: false, error };
  }
  throw new Error("unreachable");
}

/** The message of a database error raised by a SQL function (e.g. 'cart_empty'). */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
