import { sql } from "kysely";
import type { Tx } from "@/server/db/as-caller";

/** A reference no order has yet (new_order_reference() checks every order, which customers cannot see). */
export async function newOrderReference(trx: Tx): Promise<string> {
  const { rows } = await sql<{ reference: string }>`select public.new_order_reference() as reference`.execute(trx);
  return rows[0]!.reference;
}
