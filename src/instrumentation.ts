/**
 * Runs once when the server starts (`npm start`, `npm run dev`), before any request: a setting
 * that is wrong stops the server at once with the variable's name and what it takes, instead of
 * a server that answers every page with "Internal Server Error". The check itself lives in a
 * Node-only module, so the Edge build of this file carries none of it.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") await import("./instrumentation-node");
}
