import { sql, type RawBuilder } from "kysely";
import type { Tx } from "@/server/db/as-caller";
import type { Order } from "@/server/db/schema";
import type { FulfilmentChoice } from "@/server/fulfilment/schemas";

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

/** What the first statement of a payment finds: see `beginPayment`. */
export interface PaymentStart {
  /** Milliseconds until the customer may try again (0: this try was counted and may go on). */
  wait: number;
  hasCartLines: boolean;
  /** The order an earlier try with the same idempotency key placed (a retry, a double click). */
  earlier: { id: string; reference: string } | null;
}

/**
 * The start of a payment, in one statement (one call to the database): the customer's checkout
 * limit counted, and public.payment_start(): whether their cart has lines and the order an
 * earlier try with this idempotency key placed, both read in one snapshot.
 */
export async function beginPayment(trx: Tx, args: { idempotencyKey: string; limit: RawBuilder<number> }): Promise<PaymentStart> {
  const { rows } = await sql<{ wait: number; has_cart_lines: boolean; earlier_id: string | null; earlier_reference: string | null }>`
    select ${args.limit} as wait, s.has_cart_lines, s.earlier_id, s.earlier_reference
    from public.payment_start(${args.idempotencyKey}::uuid) as s`.execute(trx);
  const row = rows[0];
  if (!row) throw new Error("payment_start returned no row");
  return {
    wait: Number(row.wait),
    hasCartLines: row.has_cart_lines,
    earlier: row.earlier_id && row.earlier_reference ? { id: row.earlier_id, reference: row.earlier_reference } : null,
  };
}

/** The fulfilment choice as place_order() takes it (jsonb; null while the shop asks none). */
export function fulfilmentJson(choice: FulfilmentChoice | null | undefined): string | null {
  return choice ? JSON.stringify(choice) : null;
}

/** Calls place_order() as the caller: the one way an order comes to exist. */
export async function placeOrderRow(
  trx: Tx,
  args: { idempotencyKey: string; reference: string; proofPath: string | null; fulfilment: FulfilmentChoice | null },
): Promise<Order> {
  const { rows } = await sql<Order>`
    select * from public.place_order(${args.idempotencyKey}::uuid, ${args.reference}, ${args.proofPath}, ${fulfilmentJson(args.fulfilment)}::jsonb)`.execute(trx);
  const order = rows[0];
  if (!order) throw new Error("place_order returned no row");
  return order;
}
