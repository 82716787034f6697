import { sql, type Kysely } from "kysely";
import type { DB } from "@/server/db/schema";
import type { Tx } from "@/server/db/as-caller";

/** A free time of a service: when it starts and ends, and how many places are left. */
export interface FreeSlot {
  startsAt: Date;
  endsAt: Date;
  places: number;
}

/** public.free_slots(): the service's free times from `from` (South African day) for `days` days, now. */
export async function readFreeSlots(trx: Tx, productId: string, from: string, days: number): Promise<FreeSlot[]> {
  const { rows } = await sql<{ starts_at: Date; ends_at: Date; places: number }>`
    select f.starts_at, f.ends_at, f.places from public.free_slots(${productId}::uuid, ${from}::date, ${days}) f`.execute(trx);
  return rows.map((row) => ({ startsAt: new Date(row.starts_at), endsAt: new Date(row.ends_at), places: Number(row.places) }));
}

/**
 * add_booking_to_cart(): holds the slot in the caller's cart, for the chosen variant or the
 * product's only one; the line's name and its hold's expiry. Undefined when the variant is not
 * the product's (or the product has several and none was chosen).
 */
export async function holdSlot(trx: Tx, productId: string, variantId: string | undefined, startsAt: string): Promise<{ name: string; holdExpiresAt: Date } | undefined> {
  const variant = variantId
    ? sql`${variantId}::uuid`
    : sql`(select v.id from public.product_variants v where v.product_id = ${productId}::uuid and (select count(*) from public.product_variants w where w.product_id = ${productId}::uuid) = 1)`;
  const { rows } = await sql<{ name: string; product_id: string; hold_expires_at: Date }>`
    select line.product_id, line.hold_expires_at, public.variant_line_name(p.name, v.option_values) as name
    from public.add_booking_to_cart(${variant}, ${startsAt}::timestamptz) as line
    join public.products p on p.id = line.product_id
    join public.product_variants v on v.id = line.variant_id`.execute(trx);
  const row = rows[0];
  return row?.product_id === productId ? { name: row.name, holdExpiresAt: new Date(row.hold_expires_at) } : undefined;
}

/** move_booking(): the booking at its new time, with its line's name; RLS and the function decide whose. */
export async function moveBookingTo(trx: Tx, bookingId: string, startsAt: string): Promise<{ name: string; startsAt: Date }> {
  const { rows } = await sql<{ name: string; starts_at: Date }>`
    select i.product_name as name, moved.starts_at
    from public.move_booking(${bookingId}::uuid, ${startsAt}::timestamptz) as moved
    join public.order_items i on i.id = moved.order_item_id`.execute(trx);
  const row = rows[0]!;
  return { name: row.name, startsAt: new Date(row.starts_at) };
}

/** cancel_booking(): the booking cancelled, with its line's name and time; the function decides whose and until when. */
export async function cancelBookingRow(trx: Tx, bookingId: string): Promise<{ name: string; startsAt: Date }> {
  const { rows } = await sql<{ name: string; starts_at: Date }>`
    select i.product_name as name, cancelled.starts_at
    from public.cancel_booking(${bookingId}::uuid) as cancelled
    join public.order_items i on i.id = cancelled.order_item_id`.execute(trx);
  const row = rows[0]!;
  return { name: row.name, startsAt: new Date(row.starts_at) };
}

/** send_booking_reminders(): the reminders due now, claimed and written to the outbox once (service role); how many. */
export async function sendDueReminders(db: Tx | Kysely<DB>, now: Date, limit: number): Promise<number> {
  const { rows } = await sql<{ sent: number }>`select public.send_booking_reminders(${now}::timestamptz, ${limit}::integer) as sent`.execute(db);
  return Number(rows[0]?.sent ?? 0);
}
