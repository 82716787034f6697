/**
 * `npm run bench:soak`: a long mixed load on the production server, to find what only time and
 * sequences reach (a limit hit after 10,000 adds, a cache or a listener that grows): visitors'
 * and signed-in customers' pages, cart changes across many customers, checkouts and admins'
 * status changes, all at once, on a fresh embedded shop (and on PostgreSQL when DATABASE_URL is
 * set). Every 30 s it reports requests/s, the share of non-2xx answers by status, p99 and the
 * server's resident memory; at the end, the targets: no 5xx at all, and memory after the first
 * minute growing by at most 10 %.
 *
 *   npm run build && npm run bench:soak                 # 10 minutes per mode
 *   SOAK_MINUTES=2 SOAK_CONNECTIONS=20 npm run bench:soak
 */
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { makeNoisyPng } from "../../tests/helpers/images";
import { mutationBody, queryPath } from "./load";
import { get, multipart, startServer, treeRss, withFreshEmbeddedShop, withFreshPostgresShop, type FreshShop, type RunningServer } from "./server";
import { prepareShop, type BenchUser, type PreparedShop } from "./prepare";

const MINUTES = Number(process.env.SOAK_MINUTES ?? 10);
const CONNECTIONS = Number(process.env.SOAK_CONNECTIONS ?? 20);
const CUSTOMERS = Number(process.env.SOAK_CUSTOMERS ?? 600);
const PRODUCTS = Number(process.env.SOAK_PRODUCTS ?? 300);
const SAMPLE_SECONDS = 30;
const PORT = Number(process.env.BENCH_PORT ?? 3450);
const BASE_URL = `http://localhost:${PORT}`;
const PAGE_LOAD = { accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" };

interface Answer {
  action: string;
  status: number;
  ms: number;
  body?: string;
}

interface Sample {
  atSeconds: number;
  requestsPerSecond: number;
  p99: number;
  rssMb: number;
  /** Answers in this window by status (0: no answer: a transport error or timeout). */
  statuses: Record<string, number>;
}

interface SoakResult {
  mode: FreshShop["mode"];
  minutes: number;
  connections: number;
  requests: number;
  requestsPerSecond: number;
  p99: number;
  statuses: Record<string, number>;
  byAction: Record<string, Record<string, number>>;
  samples: Sample[];
  serverErrors: number;
  memoryGrowth: number;
  /** What the server logged as errors (first lines), for a 5xx to be found. */
  errorLog: string[];
}

function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

function pick<T>(items: readonly T[]): T {
  return items[Math.floor(Math.random() * items.length)]!;
}

/** One request as the browser or the shop's client sends it; its status, or 0 when it got no answer. */
async function request(action: string, url: string, init: RequestInit = {}, keepBody = false): Promise<Answer> {
  const started = performance.now();
  try {
    const response = await fetch(BASE_URL + url, { ...init, headers: { origin: BASE_URL, ...init.headers }, signal: AbortSignal.timeout(30_000) });
    const body = await response.text();
    return { action, status: response.status, ms: performance.now() - started, ...(keepBody ? { body } : {}) };
  } catch {
    return { action, status: 0, ms: performance.now() - started };
  }
}

const mutation = (action: string, procedure: string, cookie: string, input: unknown) =>
  request(action, `/api/trpc/${procedure}`, { method: "POST", headers: { "content-type": "application/json", cookie }, body: mutationBody(input) });

/** A cart line's change as the cart page makes it: the cart is read, and one of its lines (by id) changed. */
async function changeLine(procedure: "cart.increase" | "cart.decrease" | "cart.remove", cookie: string): Promise<Answer[]> {
  const read = await request("cart.list", queryPath("cart.list"), { headers: { cookie } }, true);
  let lineIds: string[] = [];
  try {
    const body = JSON.parse(read.body ?? "{}") as { result?: { data?: { json?: { lines?: { id: string }[] } } } };
    lineIds = (body.result?.data?.json?.lines ?? []).map((line) => line.id);
  } catch {
    // An error page: the change below names no line of theirs, and is answered NOT_FOUND.
  }
  return [{ action: read.action, status: read.status, ms: read.ms }, await mutation(procedure, procedure, cookie, { lineId: pick(lineIds.length > 0 ? lineIds : [randomUUID()]) })];
}

/**
 * The mix, by weight: what a shop's traffic looks like, with the writes a soak must keep doing
 * (carts, checkouts, status changes) frequent enough to reach their limits in minutes.
 */
function actions(shop: PreparedShop, orderIds: string[], proof: Buffer) {
  const product = () => pick(shop.productIds);
  const customer = () => pick(shop.customers);
  const page = () => pick(["/", "/products", `/products/${product()}`, "/about"]);
  const list: [weight: number, run: () => Promise<Answer | Answer[]>][] = [
    [30, () => request("visitor page", page(), { headers: PAGE_LOAD })],
    [15, () => request("signed-in page", page(), { headers: { ...PAGE_LOAD, cookie: customer().cookie } })],
    [5, () => request("catalogue.list", queryPath("catalogue.list", {}))],
    [15, () => mutation("cart.add", "cart.add", customer().cookie, { productId: product() })],
    [5, () => changeLine("cart.increase", customer().cookie)],
    [5, () => changeLine("cart.decrease", customer().cookie)],
    [3, () => changeLine("cart.remove", customer().cookie)],
    [5, () => request("cart.list", queryPath("cart.list"), { headers: { cookie: customer().cookie } })],
    [2, () => checkout(customer(), product(), proof)],
    [
      8,
      async () => {
        const id = pick(orderIds.length > 0 ? orderIds : [randomUUID()]);
        return mutation("adminOrders.updateStatus", "adminOrders.updateStatus", shop.admin.cookie, { id, status: pick(["pending_delivery", "pending_payment", "complete"]) });
      },
    ],
    [3, () => request("adminOrders.list", queryPath("adminOrders.list", {}), { headers: { cookie: shop.admin.cookie } })],
  ];
  const total = list.reduce((sum, [weight]) => sum + weight, 0);
  return () => {
    let roll = Math.random() * total;
    for (const [weight, run] of list) {
      roll -= weight;
      if (roll < 0) return run();
    }
    return list[0]![1]();
  };
}

/** A whole checkout: an item in the cart, the reference the checkout page reserves, the order with a proof. */
async function checkout(customer: BenchUser, productId: string, proof: Buffer): Promise<Answer[]> {
  const added = await mutation("checkout: cart.add", "cart.add", customer.cookie, { productId });
  const started = await request("checkout.start", queryPath("checkout.start"), { headers: { cookie: customer.cookie } }, true);
  // tRPC's answer: { result: { data: { json: { reference, ... } } } }
  const reference = started.status === 200 ? (JSON.parse(started.body ?? "{}") as { result?: { data?: { json?: { reference?: string } } } }).result?.data?.json?.reference : undefined;
  delete started.body;
  if (!reference) return [added, started];
  const form = multipart({ reference, idempotencyKey: randomUUID() }, { name: "proof.png", type: "image/png", bytes: proof });
  const placed = await request("checkout.placeOrder", "/api/trpc/checkout.placeOrder", {
    method: "POST",
    headers: { cookie: customer.cookie, "content-type": form.contentType },
    body: form.body,
  });
  return [added, started, placed];
}

async function soak(mode: FreshShop["mode"], shop: PreparedShop, serverEnv: Record<string, string>): Promise<SoakResult> {
  console.log(`\n[soak] ${mode}: starting the production server; ${MINUTES} min at ${CONNECTIONS} connections`);
  const running: RunningServer = await startServer(PORT, serverEnv);
  try {
    const proof = makeNoisyPng(50 * 1024);
    // Some orders for the admins to move about from the start.
    for (const customer of shop.customers.slice(0, 20)) await checkout(customer, shop.productIds[0]!, proof);
    const listed = (await get(BASE_URL, "adminOrders.list", shop.admin.cookie, {})) as { orders: { id: string }[] };
    const orderIds = listed.orders.map((order) => order.id);
    const next = actions(shop, orderIds, proof);

    const answers: Answer[] = [];
    const samples: Sample[] = [];
    const started = performance.now();
    const endAt = started + MINUTES * 60_000;
    let windowStart = 0;
    const sampler = setInterval(() => {
      const window = answers.slice(windowStart);
      windowStart = answers.length;
      const statuses: Record<string, number> = {};
      for (const answer of window) statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
      const sample = {
        atSeconds: Math.round((performance.now() - started) / 1000),
        requestsPerSecond: window.length / SAMPLE_SECONDS,
        p99: percentile(window.map((answer) => answer.ms), 99),
        rssMb: treeRss(running.server.pid!) / 1024 / 1024,
        statuses,
      };
      samples.push(sample);
      const non2xx = Object.entries(statuses).filter(([status]) => !status.startsWith("2"));
      console.log(
        `[soak] ${String(sample.atSeconds).padStart(4)} s  ${sample.requestsPerSecond.toFixed(0).padStart(5)} req/s  p99 ${sample.p99.toFixed(0).padStart(5)} ms  ` +
          `RSS ${sample.rssMb.toFixed(0)} MB  non-2xx ${non2xx.map(([status, count]) => `${status}×${count}`).join(" ") || "none"}`,
      );
    }, SAMPLE_SECONDS * 1000);

    await Promise.all(
      Array.from({ length: CONNECTIONS }, async () => {
        while (performance.now() < endAt) {
          const result = await next();
          for (const answer of Array.isArray(result) ? result : [result]) answers.push(answer);
        }
      }),
    );
    clearInterval(sampler);

    const statuses: Record<string, number> = {};
    const byAction: Record<string, Record<string, number>> = {};
    for (const answer of answers) {
      statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
      const row = (byAction[answer.action] ??= {});
      row[answer.status] = (row[answer.status] ?? 0) + 1;
    }
    const afterFirstMinute = samples.filter((sample) => sample.atSeconds > 60);
    const baseline = afterFirstMinute[0]?.rssMb ?? Number.NaN;
    const last = samples.at(-1)?.rssMb ?? Number.NaN;
    const errorLog = running
      .log()
      .split("\n")
      .filter((line) => /error/i.test(line))
      .slice(0, 20);
    return {
      mode,
      minutes: MINUTES,
      connections: CONNECTIONS,
      requests: answers.length,
      requestsPerSecond: answers.length / ((performance.now() - started) / 1000),
      p99: percentile(answers.map((answer) => answer.ms), 99),
      statuses,
      byAction,
      samples,
      serverErrors: answers.filter((answer) => answer.status >= 500 || answer.status === 0).length,
      memoryGrowth: last / baseline - 1,
      errorLog,
    };
  } finally {
    await running.stop();
  }
}

function report(results: SoakResult[]): string {
  const lines: string[] = [];
  for (const result of results) {
    const share = (count: number) => `${((count / result.requests) * 100).toFixed(2)} %`;
    const non2xx = Object.entries(result.statuses).filter(([status]) => !status.startsWith("2"));
    lines.push(
      `\n### Soak: ${result.mode === "embedded" ? "embedded (PGlite)" : "PostgreSQL server"}, ${result.minutes} min, ${result.connections} connections\n`,
      `${result.requests} requests, **${result.requestsPerSecond.toFixed(0)} req/s**, p99 **${result.p99.toFixed(0)} ms**; ` +
        `non-2xx: ${non2xx.map(([status, count]) => `${status === "0" ? "no answer" : status} ${share(count)}`).join(", ") || "none"}; ` +
        `**${result.serverErrors} × 5xx** (target 0); memory after the first minute ${result.memoryGrowth >= 0 ? "+" : ""}${(result.memoryGrowth * 100).toFixed(1)} % (target ≤ 10 %).`,
      "",
      "| Action | " + ["2xx", "4xx", "5xx / none"].join(" | ") + " |",
      "|---|---:|---:|---:|",
    );
    for (const [action, counts] of Object.entries(result.byAction).sort()) {
      const sum = (test: (status: number) => boolean) =>
        Object.entries(counts)
          .filter(([status]) => test(Number(status)))
          .reduce((total, [, count]) => total + count, 0);
      const fourxx = Object.entries(counts)
        .filter(([status]) => status.startsWith("4"))
        .map(([status, count]) => `${count} (${status})`)
        .join(", ");
      lines.push(`| ${action} | ${sum((s) => s >= 200 && s < 300)} | ${fourxx || 0} | ${sum((s) => s >= 500 || s === 0)} |`);
    }
    lines.push("", "| at s | req/s | p99 ms | RSS MB |", "|---:|---:|---:|---:|");
    for (const sample of result.samples) lines.push(`| ${sample.atSeconds} | ${sample.requestsPerSecond.toFixed(0)} | ${sample.p99.toFixed(0)} | ${sample.rssMb.toFixed(0)} |`);
    if (result.errorLog.length > 0) lines.push("", "Server log lines with errors (first 20):", "```", ...result.errorLog, "```");
  }
  return lines.join("\n");
}

async function main() {
  if (!fs.existsSync(path.join(".next", "BUILD_ID"))) throw new Error("No production build: run `npm run build` first.");
  const results: SoakResult[] = [];
  const run = async (shop: FreshShop) => {
    console.log(`[soak] ${shop.mode}: seeding ${PRODUCTS} products and ${CUSTOMERS} customers`);
    const prepared = await prepareShop({ database: shop.database, dataDir: shop.dataDir, products: PRODUCTS, customers: CUSTOMERS });
    results.push(await soak(shop.mode, prepared, shop.serverEnv));
  };
  await withFreshEmbeddedShop("shop-soak", run);
  if (process.env.DATABASE_URL) await withFreshPostgresShop(process.env.DATABASE_URL, "shop-soak", run);

  const machine = `${os.cpus().length} × ${os.cpus()[0]?.model.trim() ?? "CPU"}, ${(os.totalmem() / 1024 ** 3).toFixed(0)} GiB, Node ${process.version}`;
  fs.mkdirSync("bench-results", { recursive: true });
  const file = path.join("bench-results", `soak-${new Date().toISOString().replaceAll(":", "-")}.json`);
  fs.writeFileSync(file, JSON.stringify({ date: new Date().toISOString(), machine, results }, null, 2));
  console.log(`\n## Soak (${machine})`);
  console.log(report(results));
  console.log(`\n[soak] wrote ${file}`);
  const failed = results.filter((result) => result.serverErrors > 0 || result.memoryGrowth > 0.1);
  if (failed.length > 0) {
    console.error(`[soak] target missed in ${failed.map((result) => result.mode).join(", ")}`);
    process.exitCode = 1;
  }
}

main().then(
  () => process.exit(process.exitCode ?? 0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
