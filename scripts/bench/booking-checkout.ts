/**
 * Checkout with a booking line against checkout without one (issue 38's goal: p95 within 10 % at
 * 10 connections). One production server on a fresh embedded shop (and on PostgreSQL when
 * DATABASE_URL is set) with a bookable service (an hour long, 100 at once, every half hour for 7
 * days); rounds interleave three kinds on the same server (after a warm-up round, each going first
 * in turn): CHECKOUTS customers with one product in the cart pay (200 kB PNG proof), then CHECKOUTS
 * with the same product and a held time of the service, the ten at once taking times apart, then
 * overlapping times (KINDS). p50/p95 per kind over all rounds, and the ratios: of the medians, and
 * paired (the median of each round's ratio). Needs a build.
 *
 *   BENCH_PORT=3700 npx tsx scripts/bench/booking-checkout.ts
 *   BOOKING_ROUNDS=5 BOOKING_CHECKOUTS=150 DATABASE_URL=postgres://… npx tsx scripts/bench/booking-checkout.ts
 *   BOOKING_EMBEDDED=0 DATABASE_URL=postgres://… npx tsx scripts/bench/booking-checkout.ts   # PostgreSQL only
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

/**
 * The booked kinds differ in the times ten concurrent checkouts take: "times apart" books the
 * service's hours in turn (no two overlap: the common case), "overlapping times" its 30-minute
 * starts in turn (each overlaps its neighbours, so they queue on the hours' locks: the worst case).
 */
const KINDS = ["without a booking", "with a booking, times apart", "with a booking, overlapping times"] as const;
type Kind = (typeof KINDS)[number];

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

async function measure(fresh: FreshShop) {
  const shop = await prepareShop({ database: fresh.database, dataDir: fresh.dataDir, products: 20, customers: KINDS.length * (ROUNDS + 1) * CHECKOUTS });
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
  const latencies = Object.fromEntries(KINDS.map((kind) => [kind, [] as number[]])) as Record<Kind, number[]>;
  const p95s = Object.fromEntries(KINDS.map((kind) => [kind, [] as number[]])) as Record<Kind, number[]>;
  try {
    const slots = (await get(baseUrl, "bookings.freeSlots", "", { productId: serviceId, from: shopDay(1), days: 7 })) as { startsAt: string }[];
    const onTheHour = slots.filter((slot) => new Date(slot.startsAt).getUTCMinutes() === 0);
    if (onTheHour.length === 0 || onTheHour.length === slots.length) throw new Error("the service has no free half hours and hours");
    const times: Record<Kind, { startsAt: string }[]> = { "without a booking": [], "with a booking, times apart": onTheHour, "with a booking, overlapping times": slots };
    let pool: BenchUser[] = shop.customers;
    const nextTime = Object.fromEntries(KINDS.map((kind) => [kind, 0])) as Record<Kind, number>;
    // Round 0 warms the server up and is not counted; the kinds take turns going first.
    for (let round = 0; round <= ROUNDS; round++) {
      const kinds: Kind[] = KINDS.map((_, i) => KINDS[(i + round) % KINDS.length]!);
      for (const kind of kinds) {
        const customers = pool.slice(0, CHECKOUTS);
        pool = pool.slice(CHECKOUTS);
        const references = new Map<string, string>();
        await eachLimited(customers, 8, async (customer) => {
          await post(baseUrl, "cart.add", customer.cookie, { productId });
          const own = times[kind];
          if (own.length > 0) await post(baseUrl, "cart.addBooking", customer.cookie, { productId: serviceId, startsAt: own[nextTime[kind]++ % own.length]!.startsAt });
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
        console.log(`[bench] ${fresh.mode} round ${round} checkout ${kind.padEnd(33)} c=${CONNECTIONS} p50 ${result.p50.toFixed(1)}  p95 ${result.p95.toFixed(1)} ms`);
      }
    }
  } finally {
    await server.stop();
  }
  const median = (values: number[]) => quantile(values, 0.5);
  const without = median(p95s["without a booking"]);
  // Also paired: each round's p95 against the same round's checkout without a booking, so that a
  // slow spell of the machine, which slows every kind of that round, cancels out.
  const paired = (kind: Kind) => median(p95s[kind].map((p95, round) => p95 / p95s["without a booking"][round]!)) - 1;
  const ratios = KINDS.slice(1).map((kind) => {
    const p95 = median(p95s[kind]);
    return `${kind} ${p95.toFixed(0)} ms (${((p95 / without - 1) * 100).toFixed(1)} %, paired by round ${(paired(kind) * 100).toFixed(1)} %, p50 ${median(latencies[kind]).toFixed(0)} ms)`;
  });
  console.log(
    `[bench] ${fresh.mode}: checkout p95 at ${CONNECTIONS} connections, median of ${ROUNDS} interleaved rounds of ${CHECKOUTS}: ` +
      `without a booking ${without.toFixed(0)} ms (p50 ${median(latencies["without a booking"]).toFixed(0)} ms); ${ratios.join("; ")}`,
  );
}

if (process.env.BOOKING_EMBEDDED !== "0") await withFreshEmbeddedShop("bench-booking-checkout", measure);
if (process.env.DATABASE_URL) await withFreshPostgresShop(process.env.DATABASE_URL, "bench_booking_checkout", measure);
