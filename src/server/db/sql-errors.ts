/** The stable code a SQL function raised (its message, e.g. 'cart_empty'), if it raised one. */
export function sqlErrorCode(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const message = (error as { message?: unknown }).message;
  return typeof message === "string" && /^[a-z_]+$/.test(message) ? message : undefined;
}

/** Postgres's SQLSTATE of an error, if it has one (e.g. '23505' unique violation). */
export function sqlState(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === "string" ? code : undefined;
}
