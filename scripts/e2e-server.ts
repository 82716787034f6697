/**
 * Serves the production build for the browser tests: a fresh, temporary embedded data directory
 * every run, so tests start from the seeded shop and leave nothing behind.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const port = process.env.E2E_PORT ?? "3100";
if (!fs.existsSync(path.join(".next", "BUILD_ID"))) {
  console.error("No production build found: run `npm run build` before the browser tests.");
  process.exit(1);
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-e2e-"));

// Prepare the data directory before the server takes it: migrations, the demo catalogue, the
// demo admin and customer as test fixtures (the production server itself never seeds them), and
// shop settings with a real-looking bank account (production refuses orders to the demo one).
const { openDatabase } = await import("@/server/db/database");
const { migrate } = await import("@/server/db/migrate");
const { seedOnce } = await import("@/server/db/seed");
const { configuredShopSettings } = await import("../tests/helpers/shop-settings");
const fixtures = await openDatabase({ engine: "pglite", dataDir });
await migrate(fixtures.kysely);
await seedOnce(fixtures.kysely, { demoUsers: true, settings: configuredShopSettings() });
await fixtures.close();

const server = spawn(process.execPath, ["node_modules/next/dist/bin/next", "start", "-p", port], {
  stdio: "inherit",
  env: { ...process.env, DATA_DIR: dataDir, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" },
});

function cleanUp() {
  fs.rmSync(dataDir, { recursive: true, force: true });
}

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => server.kill(signal));
}
server.on("exit", (code) => {
  cleanUp();
  process.exit(code ?? 0);
});
