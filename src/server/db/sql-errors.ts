import { formatDateTime } from "@/lib/days";

/** The stable code a SQL function raised (its message, e.g. 'cart_empty'), if it raised one. */
export function sqlErrorCode(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const message = (error as { message?: unknown }).message;
  return typeof message === "string" && /^[a-z_]+$/.test(message) ? message : undefined;
}

/** The JSON object a SQL function put in its error's DETAIL (e.g. which line, how many left), if any. */
export function sqlErrorDetail(error: unknown): Record<string, unknown> | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const detail = (error as { detail?: unknown }).detail;
  if (typeof detail !== "string") return undefined;
  try {
    const value: unknown = JSON.parse(detail);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** What a `not_enough_stock` refusal names (place_order(), accept_quote()): the line, and how many are left. */
export function stockShortfall(error: unknown): { name: string | undefined; left: number } {
  const detail = sqlErrorDetail(error);
  return { name: typeof detail?.name === "string" ? detail.name : undefined, left: typeof detail?.left === "number" ? detail.left : 0 };
}

/** What a `slot_taken` refusal names (place_order(), accept_quote()): the line, and its time in the shop's words. */
export function takenSlot(error: unknown): { name: string; when: string } {
  const detail = sqlErrorDetail(error);
  return {
    name: typeof detail?.name === "string" ? detail.name : "A booking",
    when: typeof detail?.startsAt === "string" ? formatDateTime(detail.startsAt) : "its time",
  };
}

/** Postgres's SQLSTATE of an error, if it has one (e.g. '23505' unique violation). */
export function sqlState(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === "string" ? code : undefined;
}

/** The name of the constraint an error violated (check, unique, foreign key...), if it names one. */
export function sqlConstraint(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const constraint = (error as { constraint?: unknown }).constraint;
  return typeof constraint === "string" ? constraint : undefined;
}

/** Whether `error` is a violation (SQLSTATE 23514) of the check constraint named `constraint`. */
export function violatesCheck(error: unknown, constraint: string): boolean {
  return sqlState(error) === "23514" && sqlConstraint(error) === constraint;
}

/** Whether `error` is a violation (SQLSTATE 23503) of the foreign key named `constraint`. */
export function violatesForeignKey(error: unknown, constraint: string): boolean {
  return sqlState(error) === "23503" && sqlConstraint(error) === constraint;
}

/** SQLSTATE 22003: a number too large for its column or variable (e.g. a numeric(12, 2) total). */
export function isNumericOverflow(error: unknown): boolean {
  return sqlState(error) === "22003";
}

const CONNECTION_ERRNOS = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH"]);
/** SQLSTATEs of a server that is going away or cannot take us: shutdowns, no connections left. */
const UNAVAILABLE_STATES = new Set(["57P01", "57P02", "57P03", "53300"]);

/**
 * Whether `error` (or anything in its cause chain) says the database server cannot be reached
 * right now, as opposed to a query being wrong: the caller is told to try again, and the pool
 * reconnects on its own once the server is back.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 6; current = (current as { cause?: unknown }).cause, depth++) {
    if (typeof current !== "object") return false;
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && (CONNECTION_ERRNOS.has(code) || UNAVAILABLE_STATES.has(code) || code.startsWith("08"))) return true;
    const message = (current as { message?: unknown }).message;
    if (typeof message === "string" && /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/i.test(message)) {
      return true;
    }
  }
  return false;
}
