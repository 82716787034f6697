import { sql, type Kysely, type Transaction } from "kysely";
import type { DB } from "./schema";

/** Who a database transaction runs as. Role (user/admin) is never part of it: RLS reads profiles. */
export type DbIdentity =
  | { kind: "anon" }
  /**
   * The server itself, as Supabase's service key is: for the few steps no caller makes, each a
   * named function granted to service_role only (a provider's payment notification). RLS does
   * not apply to this role (BYPASSRLS, as on Supabase): keep its transactions to those functions.
   */
  | { kind: "service" }
  | { kind: "user"; id: string; email: string | null; userMetadata?: Record<string, unknown> };

export const ANON: DbIdentity = { kind: "anon" };
export const SERVICE: DbIdentity = { kind: "service" };

/** Claims shaped as Supabase Auth's access tokens, as Supabase's API gateway applies them. */
export function claimsFor(identity: DbIdentity, now = Math.floor(Date.now() / 1000)) {
  if (identity.kind === "anon") return { role: "anon", iat: now };
  if (identity.kind === "service") return { role: "service_role", iat: now };
  return {
    sub: identity.id,
    aud: "authenticated",
    role: "authenticated",
    email: identity.email ?? undefined,
    app_metadata: { provider: "email", providers: ["email"] },
    user_metadata: identity.userMetadata ?? {},
    is_anonymous: false,
    iat: now,
    exp: now + 3600,
  };
}

export type Tx = Transaction<DB>;

/**
 * Runs `work` in one transaction as `identity`: role `anon` or `authenticated` and
 * `request.jwt.claims` set transaction-locally, so Postgres row-level security decides what
 * it may see and change, in every run mode.
 */
export function runAs<T>(db: Kysely<DB>, identity: DbIdentity, work: (trx: Tx) => Promise<T>): Promise<T> {
  const role = identity.kind === "user" ? "authenticated" : identity.kind === "anon" ? "anon" : "service_role";
  const claims = stringLiteral(JSON.stringify(claimsFor(identity)));
  return db.transaction().execute(async (trx) => {
    // Literals, not parameters: a statement without parameters goes to PGlite with the
    // transaction's `begin` in one call (pglite-dialect.ts). The role is one of three words.
    await sql.raw(`select set_config('role', '${role}', true), set_config('request.jwt.claims', ${claims}, true)`).execute(trx);
    return work(trx);
  });
}

/**
 * `text` as a Postgres string literal, whatever it holds: an escape string (E'…') with every
 * backslash and quote escaped, so it reads the same whatever standard_conforming_strings says.
 */
export function stringLiteral(text: string): string {
  if (text.includes("\0")) throw new RangeError("A string literal cannot hold a NUL character");
  return `E'${text.replaceAll("\\", "\\\\").replaceAll("'", "\\'")}'`;
}

/** A database handle bound to one caller: what request handlers get. */
export interface ScopedDb {
  readonly identity: DbIdentity;
  transaction<T>(work: (trx: Tx) => Promise<T>): Promise<T>;
}

export function scopedDb(db: Kysely<DB>, identity: DbIdentity): ScopedDb {
  return { identity, transaction: (work) => runAs(db, identity, work) };
}
