/**
 * `npx tsx scripts/bench/real-device-run.ts` (after `npm run build`): the real-device measure
 * (./real-device.ts) on its own: a fresh embedded shop and the bare Next.js page, side by side.
 * REAL_DEVICE_ROUNDS (default 5); REAL_DEVICE_SIGNED_IN=1 also measures a signed-in customer.
 * REAL_DEVICE_BEFORE_DIR=<another worktree, built> also serves that build, on a fresh shop of its
 * own, and measures its four pages in the same rounds (labelled "before"): a before/after pair
 * on one machine in one run.
 */
import fs from "node:fs";
import path from "node:path";
import { prepareShop } from "./prepare";
import { BASELINE_DIR, buildBaseline, measureRealDevice, realDevicePages, realDeviceTable, type RealDevicePage } from "./real-device";
import { startServer, withFreshEmbeddedShop } from "./server";

const PORT = Number(process.env.BENCH_PORT ?? 3400);
const ROUNDS = Number(process.env.REAL_DEVICE_ROUNDS ?? 5);
const BEFORE_DIR = process.env.REAL_DEVICE_BEFORE_DIR;

async function main() {
  if (!fs.existsSync(".next/BUILD_ID")) throw new Error("build the shop first: npm run build");
  await buildBaseline(process.argv.includes("--build-baseline"));
  const shopDir = process.cwd();
  await withFreshEmbeddedShop("real-device", async (shop) => {
    const prepared = await prepareShop({ database: shop.database, dataDir: shop.dataDir, products: 60, customers: 1 });
    const server = await startServer(PORT, shop.serverEnv);
    const baseline = await startServer(PORT + 1, {}, { dir: BASELINE_DIR, readyPath: "/" });
    try {
      const productId = prepared.productIds[0]!;
      const pages = realDevicePages(server.baseUrl, baseline.baseUrl, productId);
      if (process.env.REAL_DEVICE_SIGNED_IN === "1") pages.push(...realDevicePages(server.baseUrl, baseline.baseUrl, productId, prepared.customers[0]!.cookie, " (signed in)").slice(1));
      if (BEFORE_DIR) {
        await withFreshEmbeddedShop("real-device-before", async (beforeShop) => {
          const beforePrepared = await prepareShop({ database: beforeShop.database, dataDir: beforeShop.dataDir, products: 60, customers: 1 });
          process.chdir(BEFORE_DIR);
          const before = await startServer(PORT + 2, beforeShop.serverEnv).finally(() => process.chdir(shopDir));
          try {
            // Each page of this build beside the same page of the other, so both see the same moment's load.
            const beforePages = realDevicePages(before.baseUrl, baseline.baseUrl, beforePrepared.productIds[0]!, undefined, " (before)").slice(1);
            const [bare, ...after] = pages;
            await measureAndReport([bare!, ...after.flatMap((page, i) => (beforePages[i] ? [page, beforePages[i]] : [page]))]);
          } finally {
            await before.stop();
          }
        });
      } else {
        await measureAndReport(pages);
      }
    } finally {
      await baseline.stop();
      await server.stop();
    }
  });
}

async function measureAndReport(pages: RealDevicePage[]): Promise<void> {
  const results = await measureRealDevice(pages, ROUNDS, (line) => console.log(line));
  console.log(["", ...realDeviceTable(results)].join("\n"));
  fs.mkdirSync("bench-results", { recursive: true });
  const file = path.join("bench-results", `real-device-${new Date().toISOString().replaceAll(":", "-")}.json`);
  fs.writeFileSync(file, JSON.stringify({ date: new Date().toISOString(), results }, null, 2));
  console.log(`\n[real-device] wrote ${file}`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
