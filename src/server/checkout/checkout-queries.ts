import { sql } from "kysely";
import type { Tx } from "@/server/db/as-caller";

/**
 * The caller's open bank-transfer reference, reserved on their first checkout visit and the same
 * on every later one until an order is placed with it (open_checkout_reference(), which checks
 * every order and reservation, which customers cannot see). Null while the cart is empty and
 * nothing is reserved: an empty cart reserves nothing.
 */
export async function openCheckoutReference(trx: Tx): Promise<string | null> {
  const { rows } = await sql<{ reference: string | null }>`select public.open_checkout_reference() as reference`.execute(trx);
  return rows[0]?.reference ?? null;
}
