/**
 * The owner's books at volume (issue 26): a shop with 100,000 orders and 300,000 order lines over
 * the last 360 days, then, against the production server, as an admin:
 *   - the sales overview's queries (summary; a 30-day and a 360-day range), p50/p95 over N calls;
 *   - Order Management's tab counts and first page;
 *   - the CSV of every order (the overview's export over the whole range), streamed, with the
 *     server's peak resident memory growth while it downloads.
 * Embedded by default; also PostgreSQL when DATABASE_URL is set (a fresh database).
 *
 *   BENCH_BOOKS=only npm run bench -- --no-build             # these alone, on the current build (=1: after the rest)
 *   npm run build && npx tsx scripts/bench/books.ts
 *   BOOKS_ORDERS=20000 BOOKS_CALLS=20 BENCH_PORT=3600 npx tsx scripts/bench/books.ts
 */
import os from "node:os";
import fs from "node:fs";
import path from "node:path";
import { sql } from "kysely";
import { openDatabase, type DatabaseConfig } from "@/server/db/database";
import { queryPath } from "./load";
import { prepareShop, type BenchUser } from "./prepare";
import { startServer, treeRss, withFreshEmbeddedShop, withFreshPostgresShop, type FreshShop } from "./server";

const ORDERS = Number(process.env.BOOKS_ORDERS ?? 100_000);
const LINES_PER_ORDER = 3;
const CALLS = Number(process.env.BOOKS_CALLS ?? 40);
const PORT = Number(process.env.BENCH_PORT ?? 3600);
const DAYS = 360;

interface Timing {
  name: string;
  p50: number;
  p95: number;
  max: number;
}

export interface BooksResult {
  mode: string;
  orders: number;
  lines: number;
  generateSeconds: number;
  timings: Timing[];
  csv: { bytes: number; rows: number; seconds: number; rssBeforeMb: number; rssPeakMb: number; growthMb: number };
}

/**
 * Writes the orders straight into the database (the server is not running yet): set-based SQL,
 * with the orders' own triggers (mails, history, notifications, invoices) off while it runs, as a
 * restore would, then the sales overview's rollup rebuilt from them. Unpaid orders are all from
 * the last 6 days, as the unpaid-order policy leaves them; 70 % complete, 15 % pending delivery, 10 % pending payment, 5 % cancelled.
 */
async function generateOrders(config: DatabaseConfig, customers: BenchUser[]): Promise<number> {
  const started = performance.now();
  const database = await openDatabase(config);
  try {
    const db = database.kysely;
    await db.transaction().execute(async (trx) => {
      await sql`alter table public.orders disable trigger user`.execute(trx);
      await sql`alter table public.order_items disable trigger user`.execute(trx);
      await sql`create temporary table bench_customers (n int primary key, id uuid, email text) on commit drop`.execute(trx);
      for (let i = 0; i < customers.length; i += 500) {
        const slice = customers.slice(i, i + 500);
        await sql`insert into bench_customers (n, id, email) select * from unnest(${slice.map((_, j) => i + j)}::int[], ${slice.map((c) => c.id)}::uuid[], ${slice.map((c) => c.email)}::text[])`.execute(trx);
      }
      await sql`create temporary table bench_products on commit drop as
        select row_number() over (order by id) - 1 as n, id, name, price, image_path from public.products where available`.execute(trx);
      await sql`create temporary table bench_orders on commit drop as
        select n, gen_random_uuid() as id,
               case when n % 20 < 14 then 'complete' when n % 20 < 17 then 'pending_delivery' when n % 20 < 19 then 'pending_payment' else 'cancelled' end::public.order_status as status,
               case when n % 20 in (17, 18) then now() - (random() * interval '6 days')
                    else now() - (random() * interval '${sql.raw(String(DAYS))} days') end as created_at,
               n % ${customers.length}::int as customer
        from generate_series(1, ${ORDERS}::int) as n`.execute(trx);
      const productCount = (await sql<{ c: number }>`select count(*)::int as c from bench_products`.execute(trx)).rows[0]!.c;
      await sql`create temporary table bench_lines on commit drop as
        select o.id as order_id, p.id as product_id, p.name, p.price, 1 + (o.n * 7 + k) % 3 as quantity, p.image_path
        from bench_orders o cross join generate_series(0, ${LINES_PER_ORDER - 1}::int) as k
        join bench_products p on p.n = (o.n * 31 + k * 17) % ${productCount}::int`.execute(trx);
      await sql`insert into public.orders (id, reference, user_id, customer_name, customer_email, total, status, proof_path, idempotency_key, created_at, updated_at)
        select o.id, 'ORD-' || o.n, c.id, 'Bench Customer ' || c.n, c.email, t.total, o.status, null, gen_random_uuid(), o.created_at, o.created_at
        from bench_orders o
        join bench_customers c on c.n = o.customer
        join (select order_id, sum(price * quantity) as total from bench_lines group by order_id) t on t.order_id = o.id`.execute(trx);
      await sql`insert into public.order_items (order_id, product_id, product_name, unit_price, quantity, image_path)
        select order_id, product_id, name, price, quantity, image_path from bench_lines`.execute(trx);
      await sql`alter table public.orders enable trigger user`.execute(trx);
      await sql`alter table public.order_items enable trigger user`.execute(trx);
      // The sales rollup's triggers were off too: recompute it, as after any bulk load.
      await sql`select private.rebuild_sales_rollup()`.execute(trx);
    });
    await sql`vacuum analyze public.orders`.execute(db);
    await sql`vacuum analyze public.order_items`.execute(db);
    await sql`vacuum analyze public.sales_days`.execute(db);
    await sql`vacuum analyze public.sales_day_products`.execute(db);
  } finally {
    await database.close();
  }
  return (performance.now() - started) / 1000;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function time(name: string, call: () => Promise<void>): Promise<Timing> {
  await call(); // warm: the first call plans and fills caches
  const samples: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const started = performance.now();
    await call();
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  return { name, p50: percentile(samples, 50), p95: percentile(samples, 95), max: samples.at(-1)! };
}

async function query(baseUrl: string, cookie: string, procedure: string, input?: unknown) {
  const response = await fetch(`${baseUrl}${queryPath(procedure, input)}`, { headers: { cookie } });
  if (!response.ok) throw new Error(`${procedure} answered ${response.status}: ${(await response.text()).slice(0, 300)}`);
  await response.arrayBuffer();
}

const sastDay = (at: Date) => new Intl.DateTimeFormat("en-CA", { timeZone: "Africa/Johannesburg" }).format(at);

export async function benchBooks(shop: FreshShop): Promise<BooksResult> {
  console.log(`[books] ${shop.mode}: preparing the shop`);
  const prepared = await prepareShop({ database: shop.database, dataDir: shop.dataDir, products: 200, customers: 1000 });
  console.log(`[books] ${shop.mode}: writing ${ORDERS} orders with ${ORDERS * LINES_PER_ORDER} lines`);
  const generateSeconds = await generateOrders(shop.database, prepared.customers);
  console.log(`[books] ${shop.mode}: written in ${generateSeconds.toFixed(1)} s; starting the server on ${PORT}`);
  const running = await startServer(PORT, shop.serverEnv);
  try {
    const { baseUrl } = running;
    const cookie = prepared.admin.cookie;
    const today = sastDay(new Date());
    const dayBefore = (days: number) => sastDay(new Date(Date.now() - days * 86_400_000));
    const timings: Timing[] = [];
    timings.push(await time("overview.summary (today, week, outstanding)", () => query(baseUrl, cookie, "overview.summary")));
    timings.push(await time("overview.range (30 days)", () => query(baseUrl, cookie, "overview.range", { from: dayBefore(29), to: today })));
    timings.push(await time(`overview.range (${DAYS} days)`, () => query(baseUrl, cookie, "overview.range", { from: dayBefore(DAYS), to: today })));
    timings.push(await time("adminOrders.counts (tab counts)", () => query(baseUrl, cookie, "adminOrders.counts", { search: undefined })));
    timings.push(await time("adminOrders.list (first page, all)", () => query(baseUrl, cookie, "adminOrders.list", {})));
    timings.push(await time("adminOrders.list (first page, Pending Payment)", () => query(baseUrl, cookie, "adminOrders.list", { status: "pending_payment" })));
    for (const t of timings) console.log(`[books] ${shop.mode}: ${t.name}: p50 ${t.p50.toFixed(1)} ms, p95 ${t.p95.toFixed(1)} ms`);

    // The CSV of every order, read as a browser would; the server's memory sampled meanwhile.
    const pid = running.server.pid!;
    const rssBefore = treeRss(pid);
    let peak = rssBefore;
    const sampler = setInterval(() => (peak = Math.max(peak, treeRss(pid))), 20);
    const started = performance.now();
    const response = await fetch(`${baseUrl}/admin/overview/export?from=${dayBefore(DAYS + 1)}&to=${today}`, { headers: { cookie } });
    if (!response.ok) throw new Error(`the CSV answered ${response.status}`);
    let bytes = 0;
    let rows = -1;
    const reader = response.body!.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
      for (const byte of value) if (byte === 10) rows++;
    }
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    peak = Math.max(peak, treeRss(pid));
    const mb = (b: number) => b / 1024 ** 2;
    const csv = { bytes, rows, seconds, rssBeforeMb: mb(rssBefore), rssPeakMb: mb(peak), growthMb: mb(peak - rssBefore) };
    console.log(`[books] ${shop.mode}: CSV of ${rows} orders, ${(bytes / 1e6).toFixed(1)} MB in ${seconds.toFixed(1)} s; RSS ${csv.rssBeforeMb.toFixed(0)} → peak ${csv.rssPeakMb.toFixed(0)} MB (+${csv.growthMb.toFixed(1)} MB)`);
    if (rows < ORDERS) throw new Error(`the CSV held ${rows} orders, expected ${ORDERS}`);
    return { mode: shop.mode, orders: ORDERS, lines: ORDERS * LINES_PER_ORDER, generateSeconds, timings, csv };
  } finally {
    await running.stop();
  }
}

/** The figures as the BENCHMARKS.md section shows them. */
export function booksReport(results: BooksResult[]): string {
  const lines = ["| Mode | Measurement | p50 ms | p95 ms | max ms |", "|---|---|---:|---:|---:|"];
  for (const r of results) for (const t of r.timings) lines.push(`| ${r.mode} | ${t.name} | ${t.p50.toFixed(1)} | ${t.p95.toFixed(1)} | ${t.max.toFixed(1)} |`);
  lines.push("", "| Mode | CSV of every order | size | time | server RSS before → peak (growth) |", "|---|---:|---:|---:|---:|");
  for (const r of results) {
    lines.push(`| ${r.mode} | ${r.csv.rows} orders | ${(r.csv.bytes / 1e6).toFixed(1)} MB | ${r.csv.seconds.toFixed(1)} s | ${r.csv.rssBeforeMb.toFixed(0)} → ${r.csv.rssPeakMb.toFixed(0)} MB (+${r.csv.growthMb.toFixed(1)} MB) |`);
  }
  return lines.join("\n");
}

export async function runBooks(): Promise<BooksResult[]> {
  const results: BooksResult[] = [];
  const bench = async (shop: FreshShop) => {
    results.push(await benchBooks(shop));
  };
  await withFreshEmbeddedShop("books-bench", bench);
  if (process.env.DATABASE_URL) await withFreshPostgresShop(process.env.DATABASE_URL, "books-bench", bench);
  const machine = `${os.cpus().length} × ${os.cpus()[0]?.model.trim() ?? "CPU"}, Node ${process.version}`;
  fs.mkdirSync("bench-results", { recursive: true });
  const file = path.join("bench-results", `books-${new Date().toISOString().replaceAll(":", "-")}.json`);
  fs.writeFileSync(file, JSON.stringify({ date: new Date().toISOString(), machine, results }, null, 2));
  console.log(`\n## The owner's books (${machine})\n`);
  console.log(booksReport(results));
  console.log(`\n[books] wrote ${file}`);
  return results;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  runBooks().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
