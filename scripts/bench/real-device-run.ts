/**
 * `npx tsx scripts/bench/real-device-run.ts` (after `npm run build`): the real-device measure
 * (./real-device.ts) on its own: a fresh embedded shop and the bare Next.js page, side by side.
 * REAL_DEVICE_ROUNDS (default 5); REAL_DEVICE_SIGNED_IN=1 also measures a signed-in customer.
 */
import fs from "node:fs";
import path from "node:path";
import { spawn } from "node:child_process";
import { prepareShop } from "./prepare";
import { measureRealDevice, realDevicePages, realDeviceTable } from "./real-device";
import { startServer, withFreshEmbeddedShop } from "./server";

const PORT = Number(process.env.BENCH_PORT ?? 3400);
const BASELINE_DIR = "scripts/bench/baseline";
const ROUNDS = Number(process.env.REAL_DEVICE_ROUNDS ?? 5);

async function buildBaseline(): Promise<void> {
  if (fs.existsSync(path.join(BASELINE_DIR, ".next", "BUILD_ID")) && !process.argv.includes("--build-baseline")) return;
  const child = spawn(process.execPath, ["node_modules/next/dist/bin/next", "build", BASELINE_DIR], { stdio: "inherit" });
  if ((await new Promise((resolve) => child.once("exit", resolve))) !== 0) throw new Error("the baseline build failed");
}

async function main() {
  if (!fs.existsSync(".next/BUILD_ID")) throw new Error("build the shop first: npm run build");
  await buildBaseline();
  await withFreshEmbeddedShop("real-device", async (shop) => {
    const prepared = await prepareShop({ database: shop.database, dataDir: shop.dataDir, products: 60, customers: 1 });
    const server = await startServer(PORT, shop.serverEnv);
    const baseline = await startServer(PORT + 1, {}, { dir: BASELINE_DIR, readyPath: "/" });
    try {
      const productId = prepared.productIds[0]!;
      const pages = realDevicePages(server.baseUrl, baseline.baseUrl, productId);
      if (process.env.REAL_DEVICE_SIGNED_IN === "1") pages.push(...realDevicePages(server.baseUrl, baseline.baseUrl, productId, prepared.customers[0]!.cookie, " (signed in)").slice(1));
      const results = await measureRealDevice(pages, ROUNDS, (line) => console.log(line));
      console.log(["", ...realDeviceTable(results)].join("\n"));
      fs.mkdirSync("bench-results", { recursive: true });
      const file = path.join("bench-results", `real-device-${new Date().toISOString().replaceAll(":", "-")}.json`);
      fs.writeFileSync(file, JSON.stringify({ date: new Date().toISOString(), results }, null, 2));
      console.log(`\n[real-device] wrote ${file}`);
    } finally {
      await baseline.stop();
      await server.stop();
    }
  });
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
