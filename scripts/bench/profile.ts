/**
 * `npx tsx scripts/bench/profile.ts <case> [seconds] [connections]`: a CPU profile of the
 * production server (node --cpu-prof) while autocannon drives one case, summarised by where
 * the server spent its time while under load (not starting or warming up). Needs a build.
 * Cases: signed-in-page, visitor-page, cart-add, catalogue-list, update-status, checkout (240
 * customers paying with a 200 kB PNG). The raw .cpuprofile (open it in Chrome's DevTools) and
 * the load's time span on its clock (window.json) stay in bench-results/profiles/; PROFILE=0
 * runs the same load without the profiler.
 *
 *   npx tsx scripts/bench/profile.ts signed-in-page 10
 */
import fs from "node:fs";
import path from "node:path";
import { runLoad, mutationBody, queryPath, type LoadCase } from "./load";
import { randomUUID } from "node:crypto";
import { makeNoisyPng } from "../../tests/helpers/images";
import { eachLimited, get, multipart, post, startServer, withFreshEmbeddedShop } from "./server";
import { prepareShop } from "./prepare";

const PORT = Number(process.env.BENCH_PORT ?? 3450);
const BASE_URL = `http://localhost:${PORT}`;
const pageLoad = { accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" };

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  /** Microseconds on the system's monotonic clock (what process.hrtime reads). */
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Where a frame's code comes from, coarse enough to read (a package, Next's server, the shop). */
function area(url: string, name: string): string {
  if (!url) return name.startsWith("(") ? name : "(native)";
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1];
  if (pkg === "next") {
    const part = /next\/dist\/(?:compiled\/)?([^/]+\/?[^/]*)/.exec(url)?.[1] ?? "next";
    return `next/${part}`;
  }
  if (pkg) return pkg;
  if (url.includes(".next/server/chunks")) return "shop (server chunks)";
  if (url.startsWith("node:")) return url;
  return path.basename(url);
}

/** A process's CPU time so far, in milliseconds (from /proc: clock ticks of 10 ms). */
function processCpu(pid: number): { user: number; system: number } {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return { user: Number(fields[11]) * 10, system: Number(fields[12]) * 10 };
}

/** Self time per node, counting only the samples taken within `window` (monotonic microseconds). */
function summarise(profile: CpuProfile, window: { from: number; to: number }, top = 30): string {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfTime = new Map<number, number>();
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    at += delta;
    if (at >= window.from && at <= window.to) selfTime.set(id, (selfTime.get(id) ?? 0) + delta);
  });
  const total = [...selfTime.values()].reduce((a, b) => a + b, 0);
  const idle = [...selfTime].filter(([id]) => byId.get(id)?.callFrame.functionName === "(idle)").reduce((a, [, t]) => a + t, 0);
  const byArea = new Map<string, number>();
  const byFunction = new Map<string, number>();
  for (const [id, time] of selfTime) {
    const frame = byId.get(id)!.callFrame;
    if (frame.functionName === "(idle)") continue;
    const where = area(frame.url, frame.functionName);
    byArea.set(where, (byArea.get(where) ?? 0) + time);
    const fn = `${frame.functionName || "(anonymous)"} ${where}:${frame.lineNumber + 1}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + time);
  }
  const busy = total - idle;
  const pct = (t: number) => `${((100 * t) / busy).toFixed(1).padStart(5)} %`;
  const lines = [`busy ${(busy / 1000).toFixed(0)} ms of ${(total / 1000).toFixed(0)} ms sampled`, "", "self time by area:"];
  for (const [name, time] of [...byArea].sort((a, b) => b[1] - a[1]).slice(0, top)) lines.push(`  ${pct(time)}  ${name}`);
  lines.push("", "self time by function:");
  for (const [name, time] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, top)) lines.push(`  ${pct(time)}  ${name}`);
  return lines.join("\n");
}

async function main() {
  const [which = "signed-in-page", secondsArg = "10", connectionsArg = "10"] = process.argv.slice(2);
  const seconds = Number(secondsArg);
  const connections = Number(connectionsArg);
  const profileDir = path.resolve("bench-results/profiles", `${which}-${Date.now()}`);
  fs.mkdirSync(profileDir, { recursive: true });

  const microseconds = () => Number(process.hrtime.bigint() / 1000n);
  const window = { from: 0, to: 0 };
  await withFreshEmbeddedShop("shop-profile", async (shop) => {
    const prepared = await prepareShop({ database: shop.database, dataDir: shop.dataDir, products: 500, customers: which === "checkout" ? 260 : 60 });
    // PROFILE=0: the same load without the profiler, for a quick before/after.
    const profiling = process.env.PROFILE !== "0";
    const running = await startServer(PORT, {
      ...shop.serverEnv,
      NODE_OPTIONS: `--max-old-space-size=256${profiling ? ` --cpu-prof --cpu-prof-dir=${profileDir}` : ""}`,
    });
    try {
      const productId = prepared.productIds[Math.floor(prepared.productIds.length / 2)]!;
      let rotation = 0;
      const asCustomer = (request: import("autocannon").Request) => ({
        ...request,
        headers: { ...request.headers, cookie: prepared.customers[rotation++ % prepared.customers.length]!.cookie },
      });
      const cases: Record<string, LoadCase> = {
        "visitor-page": { name: which, path: "/products", headers: pageLoad },
        "signed-in-page": { name: which, path: "/products", headers: pageLoad, setupRequest: asCustomer },
        "catalogue-list": { name: which, path: queryPath("catalogue.list", {}) },
        "cart-add": {
          name: which,
          path: "/api/trpc/cart.add",
          method: "POST",
          headers: { "content-type": "application/json" },
          body: mutationBody({ productId }),
          setupRequest: asCustomer,
        },
      };
      /** Customers with one item in the cart and their checkout's reference, each ready to pay once. */
      const readyToPay = async (customers: typeof prepared.customers) => {
        const references = new Map<string, string>();
        await eachLimited(customers, 8, async (customer) => {
          await post(BASE_URL, "cart.add", customer.cookie, { productId });
          references.set(customer.id, ((await get(BASE_URL, "checkout.start", customer.cookie)) as { reference: string }).reference);
        });
        const proof = makeNoisyPng(200 * 1024);
        let next = 0;
        return (request: import("autocannon").Request) => {
          const customer = customers[next++ % customers.length]!;
          const form = multipart({ reference: references.get(customer.id)!, idempotencyKey: randomUUID() }, { name: "proof.png", type: "image/png", bytes: proof });
          return { ...request, headers: { ...request.headers, cookie: customer.cookie, "content-type": form.contentType }, body: form.body };
        };
      };
      if (which === "checkout") {
        // Each request another customer paying for their cart with a 200 kB PNG, as the bench does.
        const payments = await readyToPay(prepared.customers.slice(20));
        const warm = await readyToPay(prepared.customers.slice(0, 20));
        await runLoad(BASE_URL, { name: which, path: "/api/trpc/checkout.placeOrder", method: "POST", amount: 20, setupRequest: warm }, connections, 2);
        window.from = microseconds();
        const server = processCpu(running.server.pid!);
        const generator = process.cpuUsage();
        const result = await runLoad(BASE_URL, { name: which, path: "/api/trpc/checkout.placeOrder", method: "POST", amount: prepared.customers.length - 20, setupRequest: payments }, connections, seconds);
        window.to = microseconds();
        console.log(`[profile] ${which}: ${result.requestsPerSecond.toFixed(0)} req/s, p50 ${result.p50.toFixed(1)} ms, p95 ${result.p95.toFixed(1)} ms, errors ${result.errors}`);
        // Where the two cores went: the server (all its threads: requests, PGlite, the re-encodes) and the load generator.
        const serverMs = processCpu(running.server.pid!);
        const generatorUs = process.cpuUsage(generator);
        const each = (ms: number) => (ms / result.requests).toFixed(1);
        console.log(
          `[profile] CPU per checkout: server ${each(serverMs.user - server.user)} ms user + ${each(serverMs.system - server.system)} ms system, load generator ${each((generatorUs.user + generatorUs.system) / 1000)} ms`,
        );
        return;
      }
      if (which === "update-status") {
        // Orders to change, placed through the API as the bench does.
        const pay = await readyToPay(prepared.customers.slice(0, 30));
        await runLoad(BASE_URL, { name: "orders", path: "/api/trpc/checkout.placeOrder", method: "POST", amount: 30, setupRequest: pay }, 4, 30);
        const { orders } = (await get(BASE_URL, "adminOrders.list", prepared.admin.cookie, {})) as { orders: { id: string }[] };
        const ids = orders.map((order) => order.id);
        if (ids.length === 0) throw new Error("no orders were placed");
        let change = 0;
        cases[which] = {
          name: which,
          path: "/api/trpc/adminOrders.updateStatus",
          method: "POST",
          headers: { "content-type": "application/json", cookie: prepared.admin.cookie },
          setupRequest: (request) => {
            const i = change++;
            return { ...request, body: mutationBody({ id: ids[i % Math.max(ids.length, 1)], status: i % 2 ? "pending_payment" : "pending_delivery" }) };
          },
        };
      }
      const load = cases[which];
      if (!load) throw new Error(`unknown case ${which}`);
      // Warm up (caches, kept pages, JIT) outside the numbers that matter.
      await runLoad(BASE_URL, load, connections, 2);
      window.from = microseconds();
      const result = await runLoad(BASE_URL, load, connections, seconds);
      window.to = microseconds();
      console.log(`[profile] ${which}: ${result.requestsPerSecond.toFixed(0)} req/s, p50 ${result.p50.toFixed(1)} ms, p95 ${result.p95.toFixed(1)} ms, errors ${result.errors}`);
    } finally {
      await running.stop();
    }
  });
  // For other analyses of the same profile: the load's time span on the profile's clock.
  fs.writeFileSync(path.join(profileDir, "window.json"), JSON.stringify(window));
  for (const file of fs.readdirSync(profileDir).filter((name) => name.endsWith(".cpuprofile"))) {
    const profile = JSON.parse(fs.readFileSync(path.join(profileDir, file), "utf8")) as CpuProfile;
    console.log(`\n[profile] ${path.join(profileDir, file)}\n${summarise(profile, window)}`);
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
