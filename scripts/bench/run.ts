/**
 * `npm run bench`: builds the shop, starts the production server on a fresh embedded data
 * directory (and on PostgreSQL when DATABASE_URL is set), seeds a larger catalogue and many
 * customers, then measures throughput and latency under load, live-update latency, page weight,
 * Core Web Vitals and the server's peak memory. Prints a table and writes bench-results/*.json.
 *
 *   npm run bench                     # build, then measure the embedded default
 *   npm run bench -- --no-build       # reuse the current .next build
 *   BENCH_PRODUCTS=500 BENCH_DURATION=5 npm run bench
 *   BENCH_PRODUCTS=2000 BENCH_VARIANTS=6 npm run bench   # every product in six sizes, counted stock
 *   BENCH_ONLY=none npm run bench -- --no-build   # no load cases: checkout, live updates, weight, vitals, Lighthouse
 *
 * Lighthouse's mobile run (scripts/bench/lighthouse.ts, median of LIGHTHOUSE_RUNS=3 per page) measures
 * /, /products, a product page and /about of the embedded shop, then Next.js alone, in the same run:
 * a report of the simulation. What a person gets is measured last, in a real Chromium throttled
 * through CDP (scripts/bench/real-device.ts; `npm run bench:real-device` runs it alone).
 */
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { makeNoisyPng } from "../../tests/helpers/images";
import { mutationBody, queryPath, runLoad, type LoadCase, type LoadResult } from "./load";
import { eachLimited, get, multipart, post, startServer, withFreshEmbeddedShop, withFreshPostgresShop, type FreshShop } from "./server";
import { measureLiveLatency, type LiveLatency } from "./live-latency";
import { measurePageWeight, type PageWeight } from "./page-weight";
import { prepareShop, type PreparedShop } from "./prepare";
import { measureVitals, type Vitals } from "./web-vitals";
import { runBooks } from "./books";
import { BASELINE_DIR, buildBaseline } from "./real-device";
import { lighthouseTable, measureLighthouse, type LighthouseResult } from "./lighthouse";

const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 500);
/** Variants per product (BENCH_VARIANTS=6 with BENCH_PRODUCTS=2000: issue 37's catalogue); 1: as seeded. */
const VARIANTS = Number(process.env.BENCH_VARIANTS ?? 1);
const DURATION = Number(process.env.BENCH_DURATION ?? 5);
const CONNECTIONS = [1, 10, 50];
/** The storefront pages measured for a visitor and for a signed-in customer. */
const STOREFRONT_PAGES: [name: string, route: string][] = [
  ["/", "/"],
  ["/products", "/products"],
  ["/products/{id}", "/products/{id}"],
  ["/about", "/about"],
];
const SIGNED_IN = "(signed in)";
const CHECKOUTS: Record<number, number> = { 1: 30, 10: 200, 50: 300 };
const ADD_TO_CART_CUSTOMERS = 50;
const CUSTOMERS = ADD_TO_CART_CUSTOMERS + Object.values(CHECKOUTS).reduce((a, b) => a + b, 0);
/** BENCH_ONLY=<regex> limits the load cases by name (the other measurements always run). */
const ONLY = new RegExp(process.env.BENCH_ONLY ?? ".");
const PORT = Number(process.env.BENCH_PORT ?? 3400);
/** Lighthouse runs per page (the median is reported). */
const LIGHTHOUSE_RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 3);
/** The pages issue 28 measured with Lighthouse, a visitor's. */
const LIGHTHOUSE_PAGES = (productId: string) => [{ route: "/" }, { route: "/products" }, { route: `/products/${productId}`, label: "/products/{id}" }, { route: "/about" }];
const BASE_URL = `http://localhost:${PORT}`;

/** A signed-in customer's throughput for a page as a share of a visitor's, at one load. */
interface SignedInRatio {
  page: string;
  connections: number;
  ratio: number;
}

interface ModeResult {
  mode: "embedded" | "postgres";
  load: LoadResult[];
  productsToAboutThroughput: number;
  signedInToVisitor: SignedInRatio[];
  live: LiveLatency;
  pageWeight: PageWeight[];
  vitals: Vitals[];
  lighthouse: LighthouseResult[];
  peakRssMb: number;
}

/**
 * Waits until the server has finished what a case left in flight (autocannon stops sending at the
 * end of a case, but the server still works through up to one request per connection), so no
 * case is measured on top of the previous one's backlog.
 */
async function drained(): Promise<void> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const started = performance.now();
    await (await fetch(`${BASE_URL}/robots.txt`)).text();
    if (performance.now() - started < 5) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function benchMode(mode: "embedded" | "postgres", shop: PreparedShop, serverEnv: Record<string, string>): Promise<ModeResult> {
  console.log(`\n[bench] ${mode}: starting the production server`);
  const running = await startServer(PORT, serverEnv);
  try {
    const productId = shop.productIds[Math.floor(shop.productIds.length / 2)]!;
    // A product with options is added as one of its variants, as its page does.
    const addBody = VARIANTS > 1 ? { productId, variantId: shop.firstVariant.get(productId)! } : { productId };
    const cartCustomers = shop.customers.slice(0, ADD_TO_CART_CUSTOMERS);
    let checkoutPool = shop.customers.slice(ADD_TO_CART_CUSTOMERS);

    // What a browser's page load asks for; a visitor's storefront page is then served from its
    // kept HTML (src/server/kept-pages/), a signed-in customer's from their role's kept template.
    const pageLoad = { accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" };
    // Warm each route once (the first render compiles nothing, but fills caches as real traffic would).
    for (const route of ["/", "/about", "/products", `/products/${productId}`]) {
      await (await fetch(BASE_URL + route, { headers: pageLoad })).text();
      await (await fetch(BASE_URL + route, { headers: { ...pageLoad, cookie: cartCustomers[0]!.cookie } })).text();
    }

    const load: LoadResult[] = [];
    const record = (result: LoadResult) => {
      load.push(result);
      console.log(
        `[bench] ${result.case.padEnd(28)} c=${String(result.connections).padStart(2)} ${result.requestsPerSecond.toFixed(0).padStart(6)} req/s  ` +
          `p50 ${result.p50.toFixed(1)}  p95 ${result.p95.toFixed(1)}  p99 ${result.p99.toFixed(1)} ms  errors ${result.errors}`,
      );
    };

    let rotation = 0;
    const asCustomer = (customers: { cookie: string }[]) => (request: import("autocannon").Request) => ({
      ...request,
      headers: { ...request.headers, cookie: customers[rotation++ % customers.length]!.cookie },
    });

    // Each storefront page twice: as a visitor, then as the customers (a different one each
    // request), so the report can set one beside the other.
    const pages: LoadCase[] = STOREFRONT_PAGES.flatMap(([name, route]): LoadCase[] => {
      const path = route.replace("{id}", productId);
      return [
        { name: `GET ${name}`, path, headers: pageLoad },
        { name: `GET ${name} ${SIGNED_IN}`, path, headers: pageLoad, setupRequest: asCustomer(cartCustomers) },
      ];
    });
    const cases: LoadCase[] = [
      ...pages,
      // The floor: a prerendered route Next.js answers without the proxy or any rendering.
      { name: "GET /robots.txt (static)", path: "/robots.txt" },
      { name: "catalogue.list", path: queryPath("catalogue.list", {}) },
      {
        name: "cart.add (signed in)",
        path: "/api/trpc/cart.add",
        method: "POST",
        headers: { "content-type": "application/json" },
        body: mutationBody(addBody),
        setupRequest: asCustomer(cartCustomers),
      },
    ];
    for (const each of cases.filter((c) => ONLY.test(c.name))) {
      for (const connections of CONNECTIONS) {
        record(await runLoad(BASE_URL, each, connections, DURATION));
        await drained();
      }
    }

    // Checkout: each request a different customer with one item in the cart, paying with a 200 kB PNG.
    const proof = makeNoisyPng(200 * 1024);
    for (const connections of CONNECTIONS) {
      const customers = checkoutPool.slice(0, CHECKOUTS[connections]);
      checkoutPool = checkoutPool.slice(customers.length);
      await eachLimited(customers, 8, async (customer) => void (await post(BASE_URL, "cart.add", customer.cookie, addBody)));
      // Each pays with the reference their checkout page reserves (place_order takes no other).
      const references = new Map<string, string>();
      await eachLimited(customers, 8, async (customer) => {
        const { reference } = (await get(BASE_URL, "checkout.start", customer.cookie)) as { reference: string };
        references.set(customer.id, reference);
      });
      await drained();
      let next = 0;
      record(
        await runLoad(
          BASE_URL,
          {
            name: "checkout (200 kB PNG)",
            path: "/api/trpc/checkout.placeOrder",
            method: "POST",
            amount: customers.length,
            setupRequest: (request) => {
              const customer = customers[next++ % customers.length]!;
              const form = multipart(
                { reference: references.get(customer.id)!, idempotencyKey: randomUUID() },
                { name: "proof.png", type: "image/png", bytes: proof },
              );
              return { ...request, headers: { ...request.headers, cookie: customer.cookie, "content-type": form.contentType }, body: form.body };
            },
          },
          connections,
          DURATION,
        ),
      );
    }
    const { orders } = (await get(BASE_URL, "adminOrders.list", shop.admin.cookie, {})) as { orders: { id: string }[] };
    const orderIds = orders.map((order) => order.id);
    if (orderIds.length === 0) throw new Error("no orders were placed: the checkout case failed");

    // Admin status changes, each to the other open status.
    let change = 0;
    for (const connections of CONNECTIONS) {
      await drained();
      record(
        await runLoad(
          BASE_URL,
          {
            name: "adminOrders.updateStatus",
            path: "/api/trpc/adminOrders.updateStatus",
            method: "POST",
            headers: { "content-type": "application/json", cookie: shop.admin.cookie },
            setupRequest: (request) => {
              const i = change++;
              const status = Math.floor(i / orderIds.length) % 2 === 0 ? "pending_delivery" : "pending_payment";
              return { ...request, body: mutationBody({ id: orderIds[i % orderIds.length], status }) };
            },
          },
          connections,
          DURATION,
        ),
      );
    }

    const throughput = (name: string) => load.find((r) => r.case === name && r.connections === 50)?.requestsPerSecond ?? Number.NaN;
    const productsToAboutThroughput = throughput("GET /products") / throughput("GET /about");
    const signedInToVisitor: SignedInRatio[] = STOREFRONT_PAGES.flatMap(([page]) =>
      CONNECTIONS.flatMap((connections) => {
        const at = (name: string) => load.find((r) => r.case === name && r.connections === connections)?.requestsPerSecond;
        const visitor = at(`GET ${page}`);
        const signedIn = at(`GET ${page} ${SIGNED_IN}`);
        return visitor && signedIn ? [{ page, connections, ratio: signedIn / visitor }] : [];
      }),
    );

    console.log("[bench] live-update latency over 200 status changes");
    const live = await measureLiveLatency(BASE_URL, shop.admin.cookie, orderIds.slice(0, 50), 200);

    console.log("[bench] page weight and Core Web Vitals");
    const storefront = ["/", "/about", "/products", `/products/${productId}`, "/contact"];
    const pageWeight: PageWeight[] = [];
    for (const route of storefront) pageWeight.push(await measurePageWeight(BASE_URL, route));
    const cartCookie = shop.customers[0]!.cookie;
    pageWeight.push({ ...(await measurePageWeight(BASE_URL, "/cart", cartCookie)), route: "/cart (signed in)" });
    const vitals = await measureVitals(BASE_URL, [
      { route: "/" },
      { route: "/products" },
      { route: `/products/${productId}` },
      { route: "/about" },
      { route: "/products", cookie: cartCookie, label: `/products ${SIGNED_IN}` },
      { route: "/cart", cookie: cartCookie },
    ]);

    // Lighthouse last: its runs are the quietest part of the bench. The embedded shop only (it is
    // the default, and the pages are served the same way in every mode).
    let lighthouse: LighthouseResult[] = [];
    if (mode === "embedded") {
      console.log(`[bench] Lighthouse, mobile, median of ${LIGHTHOUSE_RUNS}`);
      lighthouse = await measureLighthouse(BASE_URL, LIGHTHOUSE_PAGES(productId), LIGHTHOUSE_RUNS);
    }

    return { mode, load, productsToAboutThroughput, signedInToVisitor, live, pageWeight, vitals, lighthouse, peakRssMb: running.peakRss() / 1024 / 1024 };
  } finally {
    await running.stop();
  }
}

interface Baseline {
  pageWeight: PageWeight;
  vitals: Vitals;
  lighthouse: LighthouseResult;
}

/** Runs a command to its end with its output shown; throws unless it succeeds. */
async function runToEnd(command: string, args: string[], what: string): Promise<void> {
  const child = spawn(command, args, { stdio: "inherit" });
  if ((await new Promise((resolve) => child.once("exit", resolve))) !== 0) throw new Error(`${what} failed`);
}

/** The same page-weight and vitals measurements on a Next.js app with one static page. */
async function measureBaseline(build: boolean): Promise<Baseline> {
  await buildBaseline(build);
  const running = await startServer(PORT + 1, {}, { dir: BASELINE_DIR, readyPath: "/" });
  try {
    const pageWeight = await measurePageWeight(running.baseUrl, "/");
    const [vitals] = await measureVitals(running.baseUrl, [{ route: "/" }]);
    const [lighthouse] = await measureLighthouse(running.baseUrl, [{ route: "/", label: "Next.js alone (scripts/bench/baseline)" }], LIGHTHOUSE_RUNS);
    return { pageWeight, vitals: vitals!, lighthouse: lighthouse! };
  } finally {
    await running.stop();
  }
}

function report(results: ModeResult[], baseline: Baseline): string {
  const lines: string[] = [];
  const { pageWeight: w, vitals: v } = baseline;
  lines.push(
    "\n### Next.js alone (one static page, scripts/bench/baseline)\n",
    "| First-load JS (gzip) | Chunks | LCP ms | CLS | TBT ms |",
    "|---:|---:|---:|---:|---:|",
    `| ${(w.jsGzipBytes / 1000).toFixed(1)} kB | ${w.chunks} | ${v.lcp.toFixed(0)} | ${v.cls.toFixed(3)} | ${v.tbt.toFixed(0)} |`,
  );
  for (const result of results) {
    lines.push(`\n### ${result.mode === "embedded" ? "Embedded (PGlite)" : "PostgreSQL server"}\n`);
    lines.push("| Case | Connections | req/s | p50 ms | p95 ms | p99 ms | Errors |", "|---|---:|---:|---:|---:|---:|---:|");
    for (const r of result.load) {
      lines.push(`| ${r.case} | ${r.connections} | ${r.requestsPerSecond.toFixed(0)} | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.errors} |`);
    }
    // Not measured when BENCH_ONLY leaves the page cases out.
    if (Number.isFinite(result.productsToAboutThroughput)) {
      lines.push("", `\`/products\` throughput is **${(result.productsToAboutThroughput * 100).toFixed(0)} %** of \`/about\` at 50 connections.`);
    }
    if (result.signedInToVisitor.length > 0) {
      lines.push("", "| Page: signed-in throughput ÷ visitor's | " + CONNECTIONS.map((c) => `c=${c}`).join(" | ") + " |", "|---|" + CONNECTIONS.map(() => "---:").join("|") + "|");
      for (const [page] of STOREFRONT_PAGES) {
        const cells = CONNECTIONS.map((c) => result.signedInToVisitor.find((r) => r.page === page && r.connections === c));
        if (cells.every((cell) => !cell)) continue;
        lines.push(`| ${page} | ${cells.map((cell) => (cell ? `${(cell.ratio * 100).toFixed(0)} %` : "–")).join(" | ")} |`);
      }
    }
    lines.push("", `Live update (status change → event at a subscribed admin): p50 **${result.live.p50.toFixed(1)} ms**, p95 **${result.live.p95.toFixed(1)} ms**, max ${result.live.max.toFixed(1)} ms (${result.live.received}/${result.live.changes} received).`);
    lines.push("", "| Route | First-load JS (gzip) | Chunks | HTML (gzip) |", "|---|---:|---:|---:|");
    for (const w of result.pageWeight) {
      lines.push(`| ${w.route} | ${(w.jsGzipBytes / 1000).toFixed(1)} kB | ${w.chunks} | ${(w.htmlGzipBytes / 1000).toFixed(1)} kB |`);
    }
    lines.push("", "| Route (Moto G4, 4× CPU, median of 5) | LCP ms | CLS | TBT ms |", "|---|---:|---:|---:|");
    for (const v of result.vitals) lines.push(`| ${v.route} | ${v.lcp.toFixed(0)} | ${v.cls.toFixed(3)} | ${v.tbt.toFixed(0)} |`);
    if (result.lighthouse.length > 0) {
      lines.push("", `Lighthouse ${LIGHTHOUSE_RUNS}× per page, mobile (slow 4G, 4× CPU, simulated), medians; Next.js alone in the same run:`, "");
      lines.push(...lighthouseTable([...result.lighthouse, baseline.lighthouse]));
    }
    lines.push("", `Peak server memory (resident, with child processes): **${result.peakRssMb.toFixed(0)} MB**.`);
  }
  return lines.join("\n");
}

async function main() {
  const build = !process.argv.includes("--no-build");
  if (build) {
    console.log("[bench] building");
    await runToEnd("npm", ["run", "build"], "the build");
  }
  // The owner's books at 100,000 orders (scripts/bench/books.ts): BENCH_BOOKS=1 adds them, =only runs them alone.
  if (process.env.BENCH_BOOKS === "only") {
    await runBooks();
    return;
  }
  const results: ModeResult[] = [];

  const benchShop = async (shop: FreshShop) => {
    console.log(`[bench] ${shop.mode}: seeding ${PRODUCTS} products and ${CUSTOMERS} customers`);
    const prepared = await prepareShop({ database: shop.database, dataDir: shop.dataDir, products: PRODUCTS, customers: CUSTOMERS, variants: VARIANTS });
    results.push(await benchMode(shop.mode, prepared, shop.serverEnv));
  };
  await withFreshEmbeddedShop("shop-bench", benchShop);
  if (process.env.DATABASE_URL) await withFreshPostgresShop(process.env.DATABASE_URL, "shop-bench", benchShop);
  const baseline = await measureBaseline(build);

  const machine = `${os.cpus().length} × ${os.cpus()[0]?.model.trim() ?? "CPU"}, ${(os.totalmem() / 1024 ** 3).toFixed(0)} GiB, Node ${process.version}`;
  fs.mkdirSync("bench-results", { recursive: true });
  const file = path.join("bench-results", `bench-${new Date().toISOString().replaceAll(":", "-")}.json`);
  fs.writeFileSync(file, JSON.stringify({ date: new Date().toISOString(), machine, products: PRODUCTS, durationSeconds: DURATION, results, baseline }, null, 2));
  console.log(`\n## Results (${machine})`);
  console.log(report(results, baseline));
  console.log(`\n[bench] wrote ${file}`);
  // What a person on a phone gets, in a real throttled Chromium (scripts/bench/real-device.ts):
  // a fresh shop beside the baseline built above. BENCH_REAL_DEVICE=0 leaves it out.
  if (process.env.BENCH_REAL_DEVICE !== "0") await runToEnd("npx", ["tsx", "scripts/bench/real-device-run.ts"], "the real-device measure");
  if (process.env.BENCH_BOOKS === "1") await runBooks();
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
