// Loaded by instrumentation.ts on the Node.js runtime only, when the server starts (never by
// `next build`): validates the environment, then starts the process's own work (the database,
// the mail worker, the unpaid-order timer, the retention purge: src/server/platform/start-up.ts)
// from the start, not from the first request (after a crash, queued mails go out without
// waiting for a visitor).
export {};
try {
  await import("@/env");
} catch (error) {
  console.error(`\n${error instanceof Error ? error.message : String(error)}\n\nFix the setting (see .env.example) and start the shop again.\n`);
  process.exit(1);
}
const { startShopProcess } = await import("@/server/platform/start-up");
// Not awaited: a database that cannot be opened yet is tried again there, and requests answer
// "try again" meanwhile.
void startShopProcess();
