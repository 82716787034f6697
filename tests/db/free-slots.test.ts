import { sql } from "kysely";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createUser, freshDatabase, type TestDatabase, type TestUser } from "../helpers/database";
import { placeTestOrder } from "../helpers/orders";

/**
 * Free times of a bookable service (issue 38; docs/bookings.md), computed in SQL in South African
 * time at a fixed clock: Monday 7 December 2026, 08:00 SAST (06:00 UTC).
 */
const NOW = "2026-12-07T06:00:00Z";

let db: TestDatabase;
let categoryId: string;
let customer: TestUser;
let other: TestUser;
let orderId: string;
let service: string;

beforeAll(async () => {
  db = await freshDatabase();
  categoryId = (await db.kysely.selectFrom("categories").select("id").limit(1).executeTakeFirstOrThrow()).id;
  customer = await createUser(db);
  other = await createUser(db);
  const anything = (await db.kysely.insertInto("products").values({ name: "Receipt book", price: "10.00", category_id: categoryId, image_path: null }).returning("id").executeTakeFirstOrThrow()).id;
  orderId = (await placeTestOrder(db, customer, [anything])).id;
});

afterAll(async () => {
  await db?.close();
});

beforeEach(async () => {
  // The shop: open Monday to Friday 09:00-16:00, closed at the weekend.
  await sql`update public.opening_hours set open = weekday <= 5, opens = '09:00', closes = '16:00'`.execute(db.kysely);
  await db.kysely.deleteFrom("closed_days").execute();
  service = (await db.kysely.insertInto("products").values({ name: "Office clean", price: "900.00", category_id: categoryId, image_path: null }).returning("id").executeTakeFirstOrThrow()).id;
  await db.kysely.insertInto("bookable_services").values({ product_id: service, duration_minutes: 120, notice_hours: 0 }).execute();
});

/** The free slots as "YYYY-MM-DD HH:MI" in South African time, with the places left when more than one is offered. */
async function freeTimes(from: string, days = 1, opts: { now?: string; exceptUser?: string | null; notice?: boolean } = {}) {
  const { rows } = await sql<{ at: string; places: number }>`
    select to_char(f.starts_at at time zone 'Africa/Johannesburg', 'YYYY-MM-DD HH24:MI') as at, f.places
    from private.free_slots(${service}::uuid, ${from}::date, ${days}, ${opts.now ?? NOW}::timestamptz, ${opts.exceptUser ?? null}::uuid, ${opts.notice ?? true}) f`.execute(db.kysely);
  return rows.map((row) => row.at);
}

async function placesAt(from: string, at: string) {
  const { rows } = await sql<{ at: string; places: number }>`
    select to_char(f.starts_at at time zone 'Africa/Johannesburg', 'HH24:MI') as at, f.places
    from private.free_slots(${service}::uuid, ${from}::date, 1, ${NOW}::timestamptz, null, true) f`.execute(db.kysely);
  return rows.find((row) => row.at === at)?.places ?? 0;
}

/** What the function answers for one start (p_at: a hold, a checkout or a move checks only it): its places, or 0 when not offered. */
async function placesAtOnly(day: string, at: string) {
  const { rows } = await sql<{ places: number }>`
    select f.places from private.free_slots(${service}::uuid, ${day}::date, 1, ${NOW}::timestamptz, null, true,
                                            (${`${day} ${at}`}::timestamp at time zone 'Africa/Johannesburg')) f`.execute(db.kysely);
  return rows[0]?.places ?? 0;
}

/** A booking of the service from `start` (SAST, "YYYY-MM-DD HH:MI") for `minutes`, plus `buffer`, on an order line of its own. */
async function book(start: string, minutes = 120, buffer = 0, productId = service) {
  const item = await db.kysely
    .insertInto("order_items")
    .values({ order_id: orderId, product_id: productId, product_name: "Office clean", unit_price: "900.00", quantity: 1, image_path: null })
    .returning("id")
    .executeTakeFirstOrThrow();
  await sql`
    insert into public.bookings (order_id, order_item_id, user_id, product_id, starts_at, ends_at, free_at, location)
    select ${orderId}::uuid, ${item.id}::uuid, ${customer.id}::uuid, ${productId}::uuid, t, t + make_interval(mins => ${minutes}),
           t + make_interval(mins => ${minutes + buffer}), 'customer_address'
    from (select (${start}::timestamp at time zone 'Africa/Johannesburg') as t) s`.execute(db.kysely);
}

/** A hold of `user`'s on the service from `start` (SAST), expiring at `expires` (UTC). */
async function hold(user: TestUser, start: string, expires: string) {
  const variant = (await db.kysely.selectFrom("product_variants").select("id").where("product_id", "=", service).executeTakeFirstOrThrow()).id;
  await sql`
    insert into public.cart_items (user_id, product_id, variant_id, slot_starts_at, hold_expires_at)
    values (${user.id}::uuid, ${service}::uuid, ${variant}::uuid, ${start}::timestamp at time zone 'Africa/Johannesburg', ${expires}::timestamptz)`.execute(db.kysely);
}

const TUESDAY_ALL = ["09:00", "09:30", "10:00", "10:30", "11:00", "11:30", "12:00", "12:30", "13:00", "13:30", "14:00"].map((t) => `2026-12-08 ${t}`);

describe("free slots", () => {
  it("start every 30 minutes within the hours, ending by closing time; none on a closed weekday", async () => {
    expect(await freeTimes("2026-12-08")).toEqual(TUESDAY_ALL);
    expect(await freeTimes("2026-12-12", 2)).toEqual([]);
    // Monday's slots are all after 08:00, so with no notice the whole day is offered.
    expect(await freeTimes("2026-12-07")).toHaveLength(11);
  });

  it("follow the service's own hours for a weekday, and the shop's for the others", async () => {
    await db.kysely.insertInto("bookable_service_hours").values([
      { product_id: service, weekday: 6, open: true, opens: "08:00", closes: "12:00" },
      { product_id: service, weekday: 2, open: false },
    ]).execute();
    expect(await freeTimes("2026-12-12")).toEqual(["2026-12-12 08:00", "2026-12-12 08:30", "2026-12-12 09:00", "2026-12-12 09:30", "2026-12-12 10:00"]);
    expect(await freeTimes("2026-12-08")).toEqual([]);
    expect(await freeTimes("2026-12-09")).toHaveLength(11);
  });

  it("leave out closed days", async () => {
    await db.kysely.insertInto("closed_days").values({ day: "2026-12-08", reason: "Staff training" }).execute();
    expect(await freeTimes("2026-12-08")).toEqual([]);
    expect(await freeTimes("2026-12-08", 2)).toHaveLength(11);
  });

  it("leave out blocked times: an afternoon of this service, a day of every service, never another service's", async () => {
    const block = (productId: string | null, from: string, to: string) => sql`
      insert into public.booking_blocks (product_id, starts_at, ends_at)
      values (${productId}::uuid, ${from}::timestamp at time zone 'Africa/Johannesburg', ${to}::timestamp at time zone 'Africa/Johannesburg')`.execute(db.kysely);
    const elsewhere = (await db.kysely.insertInto("products").values({ name: "Consultation", price: "500.00", category_id: categoryId, image_path: null }).returning("id").executeTakeFirstOrThrow()).id;
    await db.kysely.insertInto("bookable_services").values({ product_id: elsewhere, duration_minutes: 60 }).execute();
    await block(service, "2026-12-08 12:00", "2026-12-08 16:00");
    await block(elsewhere, "2026-12-09 00:00", "2026-12-10 00:00");
    await block(null, "2026-12-10 00:00", "2026-12-11 00:00");
    try {
      // Two hours from 10:00 ends at 12:00, as the block starts: still offered; 10:30 is not.
      expect(await freeTimes("2026-12-08")).toEqual(TUESDAY_ALL.filter((t) => t <= "2026-12-08 10:00"));
      expect(await freeTimes("2026-12-09")).toEqual(TUESDAY_ALL.map((t) => t.replace("12-08", "12-09")));
      expect(await freeTimes("2026-12-10")).toEqual([]);
    } finally {
      await db.kysely.deleteFrom("booking_blocks").execute();
    }
  });

  it("respect the minimum notice and the horizon", async () => {
    await db.kysely.updateTable("bookable_services").set({ notice_hours: 26 }).where("product_id", "=", service).execute();
    // Now + 26 hours is Tuesday 10:00.
    expect(await freeTimes("2026-12-08")).toEqual(TUESDAY_ALL.slice(2));
    // Without the notice (a live hold taken within it), only the past is out.
    expect(await freeTimes("2026-12-08", 1, { notice: false })).toEqual(TUESDAY_ALL);
    await db.kysely.updateTable("bookable_services").set({ horizon_days: 3 }).where("product_id", "=", service).execute();
    expect((await freeTimes("2026-12-07", 30)).at(-1)).toBe("2026-12-10 14:00");
    // A day before today is never offered.
    expect(await freeTimes("2026-12-01", 3)).toEqual([]);
  });

  it("keep a booking's buffer clear after it", async () => {
    await db.kysely.updateTable("bookable_services").set({ buffer_minutes: 30 }).where("product_id", "=", service).execute();
    await book("2026-12-08 10:00", 120, 30);
    // The booking takes 10:00-12:30; a new one takes its 2 hours and 30 minutes of buffer.
    expect(await freeTimes("2026-12-08")).toEqual(["2026-12-08 12:30", "2026-12-08 13:00", "2026-12-08 13:30", "2026-12-08 14:00"]);
  });

  it("count how many run at once against the capacity, exactly", async () => {
    await db.kysely.updateTable("bookable_services").set({ capacity: 2 }).where("product_id", "=", service).execute();
    await book("2026-12-08 09:00");
    await book("2026-12-08 11:00");
    // 10:00-12:00 meets each of them, but never both at once: one place left.
    expect(await placesAt("2026-12-08", "10:00")).toBe(1);
    await book("2026-12-08 11:00");
    // 11:00 is full now, and so is every slot running at 11:00.
    expect(await placesAt("2026-12-08", "10:00")).toBe(0);
    expect(await placesAt("2026-12-08", "09:30")).toBe(0);
    // 09:00-11:00 ends as they start.
    expect(await placesAt("2026-12-08", "09:00")).toBe(1);
    expect(await placesAt("2026-12-08", "13:00")).toBe(2);
    // One start asked alone is answered as the whole day answers it; a time that is no start is not offered.
    for (const at of [...TUESDAY_ALL.map((time) => time.slice(11)), "14:30", "08:30", "09:15"]) {
      expect(await placesAtOnly("2026-12-08", at), at).toBe(await placesAt("2026-12-08", at));
    }
    // A cancelled booking takes nothing.
    await db.kysely.updateTable("bookings").set({ status: "cancelled" }).where("product_id", "=", service).execute();
    expect(await freeTimes("2026-12-08")).toEqual(TUESDAY_ALL);
  });

  it("count other customers' live holds, never expired ones nor the customer's own", async () => {
    await hold(other, "2026-12-08 09:00", "2026-12-07T06:10:00Z");
    await hold(customer, "2026-12-08 14:00", "2026-12-07T06:10:00Z");
    expect(await freeTimes("2026-12-08")).toEqual(["2026-12-08 11:00", "2026-12-08 11:30", "2026-12-08 12:00"]);
    expect(await freeTimes("2026-12-08", 1, { exceptUser: customer.id })).toEqual(TUESDAY_ALL.slice(4));
    // Fifteen minutes later both holds have expired.
    expect(await freeTimes("2026-12-08", 1, { now: "2026-12-07T06:15:00Z" })).toEqual(TUESDAY_ALL);
  });

  it("put a booking near midnight on its South African day", async () => {
    for (const weekday of [2, 3]) {
      await db.kysely.insertInto("bookable_service_hours").values({ product_id: service, weekday, opens: "00:00", closes: "23:59" }).execute();
    }
    await db.kysely.updateTable("bookable_services").set({ duration_minutes: 60 }).where("product_id", "=", service).execute();
    // Wednesday 00:30 SAST is Tuesday 22:30 UTC.
    await book("2026-12-09 00:30", 60);
    const tuesday = await freeTimes("2026-12-08");
    expect(tuesday.at(0)).toBe("2026-12-08 00:00");
    expect(tuesday.at(-1)).toBe("2026-12-08 22:30");
    expect(tuesday).toContain("2026-12-08 22:00");
    const wednesday = await freeTimes("2026-12-09");
    expect(wednesday.slice(0, 2)).toEqual(["2026-12-09 01:30", "2026-12-09 02:00"]);
    expect(wednesday.every((at) => at.startsWith("2026-12-09"))).toBe(true);
  });

  it("are what the shop's own function offers at the real clock", async () => {
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from public.free_slots(${service}::uuid, current_date, 7)`.execute(db.kysely);
    expect(rows[0]!.n).toBeGreaterThan(0);
  });

  it("are right for 30 days of a service with 5,000 bookings (its speed: scripts/bench/free-slots.ts)", async () => {
    await db.kysely.updateTable("bookable_services").set({ duration_minutes: 60, capacity: 4, horizon_days: 60 }).where("product_id", "=", service).execute();
    for (let weekday = 1; weekday <= 7; weekday++) {
      await db.kysely.insertInto("bookable_service_hours").values({ product_id: service, weekday, opens: "08:00", closes: "18:00" }).execute();
    }
    // 5,000 bookings: three an hour every day of the 30 days asked (900), and 4,100 before them.
    await sql`
      with slots as (
        select n, case when n <= 900
          then (date '2026-12-08' + (n - 1) / 30 + make_interval(hours => 8 + ((n - 1) / 3) % 10)) at time zone 'Africa/Johannesburg'
          else timestamptz '2026-12-07 06:00Z' - make_interval(hours => n) end as t
        from generate_series(1, 5000) as n
      ),
      items as (
        insert into public.order_items (order_id, product_id, product_name, unit_price, quantity, image_path)
        select ${orderId}::uuid, ${service}::uuid, 'Office clean ' || n, 900.00, 1, null from slots
        returning id, product_name
      )
      insert into public.bookings (order_id, order_item_id, user_id, product_id, starts_at, ends_at, free_at, location)
      select ${orderId}::uuid, i.id, ${customer.id}::uuid, ${service}::uuid, s.t, s.t + interval '1 hour', s.t + interval '1 hour', 'shop'
      from items i join slots s on i.product_name = 'Office clean ' || s.n`.execute(db.kysely);
    await sql`analyze public.bookings`.execute(db.kysely);
    // Three of four places taken every hour: each of the 19 starts a day (08:00 to 17:00) has one left.
    const { rows } = await sql<{ n: number; places: number }>`
      select count(*)::int as n, max(places)::int as places
      from private.free_slots(${service}::uuid, '2026-12-08', 30, ${NOW}::timestamptz, null, true)`.execute(db.kysely);
    expect(rows[0]).toEqual({ n: 30 * 19, places: 1 });
  });
});
