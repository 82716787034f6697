/**
 * Free times of a bookable service (issue 38; docs/bookings.md): 30 days of one service with 5,000
 * bookings (three of four places taken every hour of the 30 days, the rest before them), then
 * public.free_slots' computation (private.free_slots at a fixed clock) called N times: p50/p95.
 * Embedded by default; also PostgreSQL when DATABASE_URL is set (a fresh database, dropped after).
 *
 *   npx tsx scripts/bench/free-slots.ts
 *   DATABASE_URL=postgres://postgres:postgres@localhost:5432/postgres FREE_SLOTS_CALLS=100 npx tsx scripts/bench/free-slots.ts
 */
import { sql } from "kysely";
import { openDatabase } from "@/server/db/database";
import { migrate } from "@/server/db/migrate";
import { withFreshEmbeddedShop, withFreshPostgresShop, type FreshShop } from "./server";

const CALLS = Number(process.env.FREE_SLOTS_CALLS ?? 50);
const NOW = "2026-12-07T06:00:00Z";

async function measure(shop: FreshShop) {
  const database = await openDatabase(shop.database);
  try {
    const db = database.kysely;
    await migrate(db);
    const { rows } = await sql<{ service: string; customer: string; order_id: string }>`
      with category as (insert into public.categories (name) values ('Bench services') returning id),
      service as (insert into public.products (name, price, category_id) select 'Office clean', 900, id from category returning id),
      customer as (insert into auth.users (id, email) values (gen_random_uuid(), 'bench-bookings@example.test') returning id)
      select (select id from service) as service, (select id from customer) as customer, null::uuid as order_id`.execute(db);
    const { service, customer } = rows[0]!;
    await sql`insert into public.bookable_services (product_id, duration_minutes, capacity, horizon_days, notice_hours) values (${service}::uuid, 60, 4, 60, 0)`.execute(db);
    await sql`insert into public.bookable_service_hours (product_id, weekday, opens, closes) select ${service}::uuid, d, '08:00', '18:00' from generate_series(1, 7) d`.execute(db);
    const order = await sql<{ id: string }>`
      insert into public.orders (reference, user_id, customer_name, customer_email, total, idempotency_key)
      values ('ORD-1', ${customer}::uuid, 'Bench', 'bench-bookings@example.test', 900, gen_random_uuid()) returning id`.execute(db);
    const orderId = order.rows[0]!.id;
    await sql`
      with slots as (
        select n, case when n <= 900
          then (date '2026-12-08' + (n - 1) / 30 + make_interval(hours => 8 + ((n - 1) / 3) % 10)) at time zone 'Africa/Johannesburg'
          else timestamptz '2026-12-07 06:00Z' - make_interval(hours => n) end as t
        from generate_series(1, 5000) as n
      ),
      items as (
        insert into public.order_items (order_id, product_id, product_name, unit_price, quantity)
        select ${orderId}::uuid, ${service}::uuid, 'Office clean ' || n, 900.00, 1 from slots
        returning id, product_name
      )
      insert into public.bookings (order_id, order_item_id, user_id, product_id, starts_at, ends_at, free_at, location)
      select ${orderId}::uuid, i.id, ${customer}::uuid, ${service}::uuid, s.t, s.t + interval '1 hour', s.t + interval '1 hour', 'shop'
      from items i join slots s on i.product_name = 'Office clean ' || s.n`.execute(db);
    await sql`analyze public.bookings`.execute(db);
    const times: number[] = [];
    let found = 0;
    for (let call = 0; call < CALLS + 3; call++) {
      const started = performance.now();
      const result = await sql<{ n: number }>`select count(*)::int as n from private.free_slots(${service}::uuid, '2026-12-08', 30, ${NOW}::timestamptz, null, true)`.execute(db);
      if (call >= 3) times.push(performance.now() - started);
      found = result.rows[0]!.n;
    }
    times.sort((a, b) => a - b);
    const at = (q: number) => times[Math.min(times.length - 1, Math.ceil(q * times.length) - 1)]!.toFixed(1);
    console.log(`${shop.mode}: 30 days, 5,000 bookings, ${found} free times: p50 ${at(0.5)} ms, p95 ${at(0.95)} ms, max ${at(1)} ms over ${CALLS} calls`);
  } finally {
    await database.close();
  }
}

await withFreshEmbeddedShop("bench-free-slots", measure);
if (process.env.DATABASE_URL) await withFreshPostgresShop(process.env.DATABASE_URL, "bench_free_slots", measure);
