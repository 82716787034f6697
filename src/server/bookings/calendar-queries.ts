import { sql } from "kysely";
import type { Tx } from "@/server/db/as-caller";
import type { BookingLocation, OrderStatus } from "@/server/db/schema";

/** One booking as the admins' calendar and the run sheet show it. */
export interface CalendarBooking {
  id: string;
  productId: string | null;
  service: string;
  startsAt: Date;
  endsAt: Date;
  location: BookingLocation;
  orderId: string;
  reference: string;
  orderStatus: OrderStatus;
  customerName: string;
  customerEmail: string;
  /** The customer's WhatsApp number while they consent to it; null otherwise. */
  phone: string | null;
  /** Where it happens at the customer's: the order's delivery address, else the one kept on their profile. */
  address: string | null;
  /** What the customer added to the line (personalisation texts), as notes for the team. */
  notes: string[];
  /** Bookings of the service running at its start (itself included), and how many may run at once. */
  atOnce: number;
  capacity: number | null;
}

/**
 * The booked bookings starting on `days` South African days from `from` (one service, or all),
 * by start: the admins' calendar and the run sheet. RLS: admins read every booking, order and
 * consent (anyone else sees only their own, which this is not for).
 */
export async function readCalendar(trx: Tx, args: { from: string; days: number; productId?: string | null }): Promise<CalendarBooking[]> {
  const { rows } = await sql<{
    id: string;
    product_id: string | null;
    service: string;
    starts_at: Date;
    ends_at: Date;
    location: BookingLocation;
    order_id: string;
    reference: string;
    order_status: OrderStatus;
    customer_name: string;
    customer_email: string;
    phone: string | null;
    address: string | null;
    notes: string[];
    at_once: number;
    capacity: number | null;
  }>`
    select b.id, b.product_id, i.product_name as service, b.starts_at, b.ends_at, b.location,
           o.id as order_id, o.reference, o.status as order_status, o.customer_name, o.customer_email,
           (select c.phone from public.messaging_consents c
             where c.user_id = b.user_id and c.kind = 'whatsapp_updates' and c.withdrawn_at is null
             order by c.given_at desc limit 1) as phone,
           coalesce(o.delivery_address, p.delivery_address) as address,
           coalesce((select array_agg(e ->> 'value' order by n) from jsonb_array_elements(i.personalisation) with ordinality as x (e, n)
                     where e ->> 'kind' = 'text'), '{}') as notes,
           (select count(*)::integer from public.bookings w
             where w.product_id = b.product_id and w.status = 'booked' and w.starts_at <= b.starts_at and w.free_at > b.starts_at) as at_once,
           s.capacity
    from public.bookings b
    join public.order_items i on i.id = b.order_item_id
    join public.orders o on o.id = b.order_id
    left join public.profiles p on p.id = b.user_id
    left join public.bookable_services s on s.product_id = b.product_id
    where b.status = 'booked'
      and b.starts_at >= (${args.from}::date)::timestamp at time zone 'Africa/Johannesburg'
      and b.starts_at < (${args.from}::date + ${args.days}::integer)::timestamp at time zone 'Africa/Johannesburg'
      and (${args.productId ?? null}::uuid is null or b.product_id = ${args.productId ?? null}::uuid)
    order by b.starts_at, i.product_name, o.customer_name, b.id`.execute(trx);
  return rows.map((row) => ({
    id: row.id,
    productId: row.product_id,
    service: row.service,
    startsAt: new Date(row.starts_at),
    endsAt: new Date(row.ends_at),
    location: row.location,
    orderId: row.order_id,
    reference: row.reference,
    orderStatus: row.order_status,
    customerName: row.customer_name,
    customerEmail: row.customer_email,
    phone: row.phone,
    address: row.location === "customer_address" ? row.address : null,
    notes: row.notes,
    atOnce: Number(row.at_once),
    capacity: row.capacity,
  }));
}

/** The bookable services (admins' calendar filter), by name. */
export async function readServices(trx: Tx): Promise<{ id: string; name: string; capacity: number }[]> {
  const rows = await trx
    .selectFrom("bookable_services as s")
    .innerJoin("products as p", "p.id", "s.product_id")
    .select(["s.product_id as id", "p.name", "s.capacity"])
    .orderBy("p.name")
    .execute();
  return rows.map((row) => ({ id: row.id, name: row.name, capacity: row.capacity }));
}

/** A blocked time, with the bookings it clashes with (booked before it was blocked). */
export interface BlockedTime {
  id: string;
  productId: string | null;
  service: string | null;
  startsAt: Date;
  endsAt: Date;
  reason: string;
  clashes: { id: string; reference: string; customerName: string; service: string; startsAt: Date }[];
}

/** The blocked times not yet over (RLS: admins only), by start, each with the bookings it clashes with. */
export async function readBlocks(trx: Tx, now: Date): Promise<BlockedTime[]> {
  const { rows } = await sql<{
    id: string;
    product_id: string | null;
    service: string | null;
    starts_at: Date;
    ends_at: Date;
    reason: string;
    clashes: { id: string; reference: string; customer_name: string; service: string; starts_at: string }[];
  }>`
    select k.id, k.product_id, p.name as service, k.starts_at, k.ends_at, k.reason,
           coalesce((
             select jsonb_agg(jsonb_build_object('id', b.id, 'reference', o.reference, 'customer_name', o.customer_name,
                                                 'service', i.product_name, 'starts_at', b.starts_at) order by b.starts_at)
             from public.bookings b
             join public.orders o on o.id = b.order_id
             join public.order_items i on i.id = b.order_item_id
             where b.status = 'booked' and (k.product_id is null or b.product_id = k.product_id)
               and b.starts_at < k.ends_at and b.ends_at > k.starts_at), '[]'::jsonb) as clashes
    from public.booking_blocks k
    left join public.products p on p.id = k.product_id
    where k.ends_at > ${now}::timestamptz
    order by k.starts_at, k.id`.execute(trx);
  return rows.map((row) => ({
    id: row.id,
    productId: row.product_id,
    service: row.service,
    startsAt: new Date(row.starts_at),
    endsAt: new Date(row.ends_at),
    reason: row.reason,
    clashes: row.clashes.map((clash) => ({
      id: clash.id,
      reference: clash.reference,
      customerName: clash.customer_name,
      service: clash.service,
      startsAt: new Date(clash.starts_at),
    })),
  }));
}

/** Blocks a time (RLS: admins only); its id. `from`/`to` are South African local date-times (YYYY-MM-DDTHH:MM). */
export async function insertBlock(trx: Tx, args: { productId: string | null; from: string; to: string; reason: string }): Promise<string> {
  const { rows } = await sql<{ id: string }>`
    insert into public.booking_blocks (product_id, starts_at, ends_at, reason)
    values (${args.productId}::uuid, ${args.from}::timestamp at time zone 'Africa/Johannesburg',
            ${args.to}::timestamp at time zone 'Africa/Johannesburg', ${args.reason})
    returning id`.execute(trx);
  return rows[0]!.id;
}

/** Removes a blocked time (RLS: admins only); whether there was one. */
export async function deleteBlock(trx: Tx, id: string): Promise<boolean> {
  const result = await trx.deleteFrom("booking_blocks").where("id", "=", id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}
