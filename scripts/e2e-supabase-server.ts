/**
 * Serves the production build in Supabase mode for the Supabase browser tests
 * (playwright.supabase.config.ts): a fresh database prepared as Supabase's image prepares one
 * (tests/helpers/supabase-platform.ts: migrations applied by the non-superuser `postgres`, then
 * the seeds `supabase start` runs), a fake Supabase on it answering as Auth, Storage and
 * Realtime do (tests/helpers/fake-supabase/), and `node scripts/start.mjs` pointed at both.
 * Everything is dropped again when the server stops.
 *
 * Needs SUPABASE_ADMIN_URL (eval "$(scripts/supabase-postgres.sh)") and `npm run build`.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const port = process.env.E2E_SUPABASE_PORT ?? "3110";
const fakePort = Number(process.env.E2E_FAKE_SUPABASE_PORT ?? "3111");
if (!fs.existsSync(path.join(".next", "BUILD_ID"))) {
  console.error("No production build found: run `npm run build` before the browser tests.");
  process.exit(1);
}
if (!process.env.SUPABASE_ADMIN_URL) {
  console.error('SUPABASE_ADMIN_URL is not set: run `eval "$(scripts/supabase-postgres.sh)"` (as root) first.');
  process.exit(1);
}

const { createSupabaseDatabase, openAsPostgres } = await import("../tests/helpers/supabase-platform");
const { startFakeSupabase } = await import("../tests/helpers/fake-supabase");
const { configuredShopSettings } = await import("../tests/helpers/shop-settings");
const { saveSettings } = await import("@/server/settings/settings-queries");

const database = await createSupabaseDatabase({ seeds: true });
// A shop whose owner entered a real bank account: production refuses orders to seed.sql's demo one.
const owner = await openAsPostgres(database, 1);
await owner.kysely.transaction().execute((trx) => saveSettings(trx, configuredShopSettings()));
await owner.close();

// localhost (as playwright.supabase.config.ts's baseURL): the shop's origin, Auth's site URL.
const siteUrl = `http://localhost:${port}`;
const supabase = await startFakeSupabase({
  database: { authUrl: database.authAdminUrl, storageUrl: database.storageAdminUrl, changesUrl: database.adminUrl },
  siteUrl,
  port: fakePort,
});
// Not read in Supabase mode; set so nothing is written under the working tree's .data/.
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-e2e-supabase-"));
console.log(`[e2e-supabase] fake Supabase on ${supabase.url}, database ${database.name}`);

const server = spawn(process.execPath, ["scripts/start.mjs", "-p", port], {
  stdio: "inherit",
  env: {
    ...process.env,
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    DATA_DIR: dataDir,
    NEXT_PUBLIC_SUPABASE_URL: supabase.url,
    NEXT_PUBLIC_SUPABASE_ANON_KEY: supabase.anonKey,
    SUPABASE_SERVICE_ROLE_KEY: supabase.serviceRoleKey,
    DATABASE_URL: database.postgresUrl,
    SITE_URL: siteUrl,
    SIGN_UPS_PER_ADDRESS_PER_HOUR: "1000",
  },
});

let cleaning: Promise<void> | undefined;
function cleanUp(): Promise<void> {
  cleaning ??= (async () => {
    await supabase.close().catch((error: unknown) => console.error("[e2e-supabase] fake Supabase:", error));
    await database.close().catch((error: unknown) => console.error("[e2e-supabase] database:", error));
    fs.rmSync(dataDir, { recursive: true, force: true });
  })();
  return cleaning;
}

let failed = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => server.kill(signal));
}
// A failure in the fake stops the shop too, so the tests fail at once and the database still goes.
for (const event of ["uncaughtException", "unhandledRejection"] as const) {
  process.on(event, (error) => {
    console.error(`[e2e-supabase] ${event}:`, error);
    failed = true;
    server.kill("SIGTERM");
  });
}
server.on("exit", (code) => {
  void cleanUp().then(() => process.exit(failed ? 1 : (code ?? 0)));
});
