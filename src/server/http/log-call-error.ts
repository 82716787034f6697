/**
 * What the server's log keeps of a call that failed: the cause's kind, message, code and stack,
 * never the call's input nor a database error's `detail` (which quotes the values of the row,
 * e.g. "Key (email)=(…) already exists"). The client sees only the spec's message.
 */
export function loggableCause(error: unknown): string {
  if (!(error instanceof Error)) return typeof error === "string" ? error : "a non-Error value was thrown";
  const code = (error as { code?: unknown }).code;
  const where = ["constraint", "table", "column", "routine"]
    .map((key) => [key, (error as unknown as Record<string, unknown>)[key]] as const)
    .filter(([, value]) => typeof value === "string" && value !== "")
    .map(([key, value]) => `${key}=${String(value)}`);
  const head = `${error.name}${typeof code === "string" || typeof code === "number" ? ` [${code}]` : ""}${where.length > 0 ? ` (${where.join(", ")})` : ""}`;
  const stack = error.stack ?? `${error.name}: ${error.message}`;
  const nested = error.cause === undefined ? "" : `\ncaused by: ${loggableCause(error.cause)}`;
  return `${head}\n${stack}${nested}`;
}

/** Logs a failed tRPC call by its path and cause, without its input. */
export function logCallError(path: string | undefined, error: unknown): void {
  console.error(`[trpc] ${path ?? "<no-path>"} failed: ${loggableCause(error)}`);
}
