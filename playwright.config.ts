import { defineConfig, devices } from "@playwright/test";
import { chromiumLaunch } from "./tests/e2e/chromium";

const port = Number(process.env.E2E_PORT ?? 3100);
// localhost (not 127.0.0.1): Chromium treats it as a secure context, so the production build's
// Secure session cookie is kept over plain HTTP here.
const baseURL = `http://localhost:${port}`;


export default defineConfig({
  testDir: "tests/e2e",
  testMatch: "**/*.spec.ts",
  outputDir: "test-results",
  // One server with one embedded database: tests run one at a time.
  workers: 1,
  fullyParallel: false,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  // A whole story per test (several pages, each waited for until React has hydrated its
  // controls: tests/e2e/test.ts): 22-34 s each for the longest on a loaded 2-core machine.
  // Each step keeps its own 10 s.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"]],
  use: {
    baseURL,
    screenshot: "only-on-failure",
    trace: "retain-on-failure",
    launchOptions: chromiumLaunch,
  },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"] } }],
  webServer: {
    command: "npx tsx scripts/e2e-server.ts",
    url: `${baseURL}/api/trpc/catalogue.categories`,
    env: { E2E_PORT: String(port) },
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: "pipe",
    stderr: "pipe",
  },
});
