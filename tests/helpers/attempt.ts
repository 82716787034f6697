import { TRPCError } from "@trpc/server";
import { expect } from "vitest";
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

/** The TRPCError a call is refused with (the test fails if it succeeds or throws anything else). */
export async function trpcRefusal(call: Promise<unknown>): Promise<TRPCError> {
  const error = await call.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TRPCError);
  return error as TRPCError;
}
