/**
 * `BEFORE_DIR=<another built worktree> npx tsx scripts/bench/pages-load-pair.ts`: a visitor's and a
 * signed-in customer's /products and the robots.txt floor, served by two builds side by side (the
 * other worktree's, e.g. main, and this one's), each on a fresh embedded shop; cases interleaved
 * before/after with the bench's runLoad, and the server's CPU per request from /proc, which a
 * shared machine's load disturbs less than requests per second. ROUNDS, SECONDS, CONNS (10,50),
 * PRODUCTS (500). VARIANTS_BEFORE / VARIANTS_AFTER (1): every product in that many counted sizes;
 * with BEFORE_DIR=. the same build serves both, so the pair is the catalogue's variants alone
 * (issue 37: PRODUCTS=2000 VARIANTS_AFTER=6).
 */
import os from "node:os";
import fs from "node:fs";
import { runLoad, type LoadCase } from "./load";
import { startServer, statCpuMs, withFreshEmbeddedShop, type RunningServer } from "./server";
import { prepareShop } from "./prepare";
function treeCpuMs(root: number): number {
  const stats = fs.readdirSync("/proc").filter((d) => /^\d+$/.test(d)).flatMap((d) => { try { const s = fs.readFileSync(`/proc/${d}/stat`, "utf8"); return [{ pid: Number(d), ppid: Number(s.slice(s.lastIndexOf(")") + 2).split(" ")[1]), cpu: statCpuMs(s) }]; } catch { return []; } });
  const pids = new Set([root]);
  for (let changed = true; changed; ) { changed = false; for (const s of stats) if (pids.has(s.ppid) && !pids.has(s.pid)) { pids.add(s.pid); changed = true; } }
  return stats.filter((s) => pids.has(s.pid)).reduce((a, s) => a + s.cpu, 0);
}
const BEFORE_DIR = process.env.BEFORE_DIR;
if (!BEFORE_DIR) throw new Error("BEFORE_DIR: the worktree of the build to compare with (built with npm run build)");
const AFTER_DIR = process.cwd();
const pageLoad = { accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" };
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const SECONDS = Number(process.env.SECONDS ?? 4);
const CONNS = (process.env.CONNS ?? "10,50").split(",").map(Number);
const PRODUCTS = Number(process.env.PRODUCTS ?? 500);
const VARIANTS_BEFORE = Number(process.env.VARIANTS_BEFORE ?? 1);
const VARIANTS_AFTER = Number(process.env.VARIANTS_AFTER ?? 1);
const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
await withFreshEmbeddedShop("pair-a", async (shopA) => withFreshEmbeddedShop("pair-b", async (shopB) => {
  const prepA = await prepareShop({ database: shopA.database, dataDir: shopA.dataDir, products: PRODUCTS, customers: 50, variants: VARIANTS_BEFORE });
  const prepB = await prepareShop({ database: shopB.database, dataDir: shopB.dataDir, products: PRODUCTS, customers: 50, variants: VARIANTS_AFTER });
  process.chdir(BEFORE_DIR);
  const a = await startServer(3470, shopA.serverEnv);
  process.chdir(AFTER_DIR);
  const b = await startServer(3471, shopB.serverEnv);
  const servers: [string, RunningServer, typeof prepA][] = [["before", a, prepA], ["after", b, prepB]];
  try {
    const results: Record<string, number[]> = {};
    const casesFor = (prep: typeof prepA): LoadCase[] => {
      let rotation = 0;
      const asCustomer = (request: import("autocannon").Request) => ({ ...request, headers: { ...request.headers, cookie: prep.customers[rotation++ % prep.customers.length]!.cookie } });
      return [
        { name: "robots", path: "/robots.txt" },
        { name: "visitor /products", path: "/products", headers: pageLoad },
        { name: "signed-in /products", path: "/products", headers: pageLoad, setupRequest: asCustomer },
        { name: "visitor product page", path: `/products/${prep.productIds[Math.floor(prep.productIds.length / 2)]!}`, headers: pageLoad },
      ];
    };
    for (const [, server, prep] of servers) for (const c of casesFor(prep)) await runLoad(server.baseUrl, c, 10, 2);
    for (let round = 0; round < ROUNDS; round++) {
      for (const connections of CONNS) {
        for (let i = 0; i < casesFor(prepA).length; i++) {
          for (const [label, server, prep] of round % 2 ? [...servers].reverse() : servers) {
            const c = casesFor(prep)[i]!;
            const cpu0 = treeCpuMs(server.server.pid!);
            const r = await runLoad(server.baseUrl, c, connections, SECONDS);
            const cpuPer = (treeCpuMs(server.server.pid!) - cpu0) / r.requests;
            (results[`${label} ${c.name} c=${connections}`] ??= []).push(r.requestsPerSecond);
            (results[`${label} cpu ${c.name} c=${connections}`] ??= []).push(cpuPer);
            console.log(`round ${round} ${label.padEnd(6)} ${c.name.padEnd(20)} c=${connections}: ${r.requestsPerSecond.toFixed(0).padStart(5)} req/s p95 ${r.p95.toFixed(1)} ms, server CPU ${cpuPer.toFixed(2)} ms/req, errors ${r.errors}, load ${os.loadavg()[0]!.toFixed(2)}`);
          }
        }
      }
    }
    console.log(`\nmedians of ${ROUNDS} rounds, ${SECONDS} s each; load average now ${os.loadavg().map((x) => x.toFixed(2)).join(" ")}`);
    for (const connections of CONNS) for (const label of ["before", "after"]) {
      const g = (n: string) => med(results[`${label} ${n} c=${connections}`]!);
      const robots = g("robots"), v = g("visitor /products"), s = g("signed-in /products"), p = g("visitor product page");
      console.log(`${label.padEnd(6)} c=${connections}: robots ${robots.toFixed(0)} req/s, visitor /products ${v.toFixed(0)} (${(v / robots).toFixed(2)} of floor), signed-in ${s.toFixed(0)} (${(s / v).toFixed(2)} of visitor), product page ${p.toFixed(0)} (${(p / robots).toFixed(2)} of floor); server CPU ms/req robots ${g("cpu robots").toFixed(2)}, visitor ${g("cpu visitor /products").toFixed(2)}, signed-in ${g("cpu signed-in /products").toFixed(2)}`);
    }
  } finally {
    await a.stop();
    await b.stop();
  }
}));
process.exit(0);
