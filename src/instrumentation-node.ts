// Loaded by instrumentation.ts on the Node.js runtime only, when the server starts (never by
// `next build`): validates the environment, then opens the database, so the mail worker, the
// unpaid-order timer and the retention purge run from the start, not from the first request
// (after a crash, queued mails go out without waiting for a visitor).
export {};
try {
  await import("@/env");
} catch (error) {
  console.error(`\n${error instanceof Error ? error.message : String(error)}\n\nFix the setting (see .env.example) and start the shop again.\n`);
  process.exit(1);
}
const { getDatabase } = await import("@/server/platform");
// A failure here is not fatal: the first request tries again (and answers "try again" meanwhile).
getDatabase().catch((error: unknown) => console.error("[start] the database could not be opened yet:", error instanceof Error ? error.message : error));
