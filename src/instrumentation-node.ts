// Loaded by instrumentation.ts on the Node.js runtime only: validates the environment at start.
export {};
try {
  await import("@/env");
} catch (error) {
  console.error(`\n${error instanceof Error ? error.message : String(error)}\n\nFix the setting (see .env.example) and start the shop again.\n`);
  process.exit(1);
}
