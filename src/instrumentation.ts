/**
 * Runs once when the server starts (`npm start`, `npm run dev`), before any request: a setting
 * that is wrong stops the server at once with the variable's name and what it takes, instead of
 * a server that answers every page with "Internal Server Error".
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  try {
    await import("@/env");
  } catch (error) {
    console.error(`\n${error instanceof Error ? error.message : String(error)}\n\nFix the setting (see .env.example) and start the shop again.\n`);
    process.exit(1);
  }
}
