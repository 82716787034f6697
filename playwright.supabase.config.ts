import { defineConfig, devices } from "@playwright/test";
import { chromiumLaunch } from "./tests/e2e/chromium";

/**
 * The browser tests of Supabase mode (`npm run test:e2e:supabase`): the production build against
 * a fake Supabase (tests/helpers/fake-supabase/) on a database prepared as Supabase's. Apart from
 * playwright.config.ts so `npm run test:e2e` stays the embedded suite it was.
 */
const port = Number(process.env.E2E_SUPABASE_PORT ?? 3110);
const fakePort = Number(process.env.E2E_FAKE_SUPABASE_PORT ?? 3111);
// localhost (not 127.0.0.1): Chromium treats it as a secure context, so Secure cookies are kept.
const baseURL = `http://localhost:${port}`;


export default defineConfig({
  testDir: "tests/e2e-supabase",
  testMatch: "**/*.spec.ts",
  outputDir: "test-results/supabase",
  // One server, one database and one fake Supabase whose settings some tests change: one at a time.
  workers: 1,
  fullyParallel: false,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  // The Realtime fallback waits out a polling interval (15 s) more than once.
  timeout: 90_000,
  expect: { timeout: 10_000 },
  reporter: [["list"]],
  use: {
    baseURL,
    screenshot: "only-on-failure",
    trace: "retain-on-failure",
    launchOptions: chromiumLaunch,
  },
  projects: [{ name: "supabase", use: { ...devices["Desktop Chrome"] } }],
  webServer: {
    command: "npx tsx scripts/e2e-supabase-server.ts",
    url: `${baseURL}/api/trpc/catalogue.categories`,
    env: { E2E_SUPABASE_PORT: String(port), E2E_FAKE_SUPABASE_PORT: String(fakePort) },
    reuseExistingServer: false,
    // SIGTERM, not the default SIGKILL: the server script then drops its database and stops the fake.
    gracefulShutdown: { signal: "SIGTERM", timeout: 15_000 },
    timeout: 180_000,
    stdout: "pipe",
    stderr: "pipe",
  },
});
