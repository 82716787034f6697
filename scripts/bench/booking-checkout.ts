/**
 * Checkout with a booking line against checkout without one (issue 38's goal: p95 within 10 % at
 * 10 connections). One production server on a fresh embedded shop (and on PostgreSQL when
 * DATABASE_URL is set) with a bookable service (capacity 100 an hour, every hour for 7 days);
 * rounds interleave the two kinds on the same server (after a warm-up round, each going first in
 * turn): CHECKOUTS customers with one product in the cart pay (200 kB PNG proof), and CHECKOUTS
 * customers with the same product and a held time of the service. p50/p95 per kind over all rounds, and the ratio. Needs a build.
 *
 *   BENCH_PORT=3700 npx tsx scripts/bench/booking-checkout.ts
 *   BOOKING_ROUNDS=5 BOOKING_CHECKOUTS=150 DATABASE_URL=postgres://… npx tsx scripts/bench/booking-checkout.ts
 */
import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { shopDay } from "@/lib/days";
import { openDatabase } from "@/server/db/database";
import { makeNoisyPng } from "../../tests/helpers/images";
import { runLoad } from "./load";
import { prepareShop, type BenchUser } from "./prepare";
import { eachLimited, get, multipart, post, startServer, withFreshEmbeddedShop, withFreshPostgresShop, type FreshShop } from "./server";

const PORT = Number(process.env.BENCH_PORT ?? 3400);
const ROUNDS = Number(process.env.BOOKING_ROUNDS ?? 4);
const CHECKOUTS = Number(process.env.BOOKING_CHECKOUTS ?? 120);
const CONNECTIONS = 10;

type Kind = "without a booking" | "with a booking";

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

async function measure(fresh: FreshShop) {
  const shop = await prepareShop({ database: fresh.database, dataDir: fresh.dataDir, products: 20, customers: 2 * (ROUNDS + 1) * CHECKOUTS });
  const productId = shop.productIds[0]!;
  const database = await openDatabase(fresh.database);
  let serviceId: string;
  try {
    const { rows } = await sql<{ id: string }>`
      insert into public.products (name, price, category_id)
      select 'Bench office clean', 900, id from public.categories order by name limit 1 returning id`.execute(database.kysely);
    serviceId = rows[0]!.id;
    await sql`insert into public.bookable_services (product_id, duration_minutes, capacity, notice_hours, horizon_days, location) values (${serviceId}::uuid, 60, 100, 0, 30, 'shop')`.execute(database.kysely);
    await sql`insert into public.bookable_service_hours (product_id, weekday, opens, closes) select ${serviceId}::uuid, d, '00:00', '23:59' from generate_series(1, 7) d`.execute(database.kysely);
  } finally {
    await database.close();
  }

  const server = await startServer(PORT, fresh.serverEnv);
  const baseUrl = server.baseUrl;
  const proof = makeNoisyPng(200 * 1024);
  const latencies: Record<Kind, number[]> = { "without a booking": [], "with a booking": [] };
  const p95s: Record<Kind, number[]> = { "without a booking": [], "with a booking": [] };
  try {
    const slots = (await get(baseUrl, "bookings.freeSlots", "", { productId: serviceId, from: shopDay(1), days: 7 })) as { startsAt: string }[];
    if (slots.length === 0) throw new Error("the service has no free time");
    let pool: BenchUser[] = shop.customers;
    let slot = 0;
    // Round 0 warms the server up and is not counted; the kinds take turns going first (ABBA).
    for (let round = 0; round <= ROUNDS; round++) {
      const kinds: Kind[] = round % 2 === 0 ? ["without a booking", "with a booking"] : ["with a booking", "without a booking"];
      for (const kind of kinds) {
        const customers = pool.slice(0, CHECKOUTS);
        pool = pool.slice(CHECKOUTS);
        const references = new Map<string, string>();
        await eachLimited(customers, 8, async (customer) => {
          await post(baseUrl, "cart.add", customer.cookie, { productId });
          if (kind === "with a booking") await post(baseUrl, "cart.addBooking", customer.cookie, { productId: serviceId, startsAt: slots[slot++ % slots.length]!.startsAt });
          const { reference } = (await get(baseUrl, "checkout.start", customer.cookie)) as { reference: string };
          references.set(customer.id, reference);
        });
        let next = 0;
        const result = await runLoad(
          baseUrl,
          {
            name: `checkout ${kind}`,
            path: "/api/trpc/checkout.placeOrder",
            method: "POST",
            amount: customers.length,
            setupRequest: (request) => {
              const customer = customers[next++ % customers.length]!;
              const form = multipart({ reference: references.get(customer.id)!, idempotencyKey: randomUUID() }, { name: "proof.png", type: "image/png", bytes: proof });
              return { ...request, headers: { ...request.headers, cookie: customer.cookie, "content-type": form.contentType }, body: form.body };
            },
          },
          CONNECTIONS,
          5,
        );
        if (result.errors > 0) throw new Error(`checkout ${kind}: ${result.errors} errors or non-2xx answers`);
        if (round === 0) continue;
        p95s[kind].push(result.p95);
        latencies[kind].push(result.p50);
        console.log(`[bench] ${fresh.mode} round ${round} checkout ${kind.padEnd(17)} c=${CONNECTIONS} p50 ${result.p50.toFixed(1)}  p95 ${result.p95.toFixed(1)} ms`);
      }
    }
  } finally {
    await server.stop();
  }
  const median = (values: number[]) => quantile(values, 0.5);
  const without = median(p95s["without a booking"]);
  const withBooking = median(p95s["with a booking"]);
  console.log(
    `[bench] ${fresh.mode}: checkout p95 at ${CONNECTIONS} connections, median of ${ROUNDS} interleaved rounds of ${CHECKOUTS}: ` +
      `without a booking ${without.toFixed(0)} ms, with a booking ${withBooking.toFixed(0)} ms (${((withBooking / without - 1) * 100).toFixed(1)} %); ` +
      `p50 ${median(latencies["without a booking"]).toFixed(0)} / ${median(latencies["with a booking"]).toFixed(0)} ms`,
  );
}

await withFreshEmbeddedShop("bench-booking-checkout", measure);
if (process.env.DATABASE_URL) await withFreshPostgresShop(process.env.DATABASE_URL, "bench_booking_checkout", measure);
