import { sql, type Kysely, type RawBuilder, type Transaction } from "kysely";
import { env } from "@/env";
import { CHECKOUT_LIMIT, CONTACT_LIMIT, DATA_EXPORT_LIMIT, QUOTE_REQUEST_LIMIT, PASSWORD_RESET_ADDRESS_LIMIT, PASSWORD_RESET_EMAIL_LIMIT, SIGN_IN_ADDRESS_LIMIT, SIGN_IN_EMAIL_LIMIT, SIGN_UP_LIMIT, type LimitRule } from "@/lib/constants";
import type { ScopedDb } from "@/server/db/as-caller";
import type { DB } from "@/server/db/schema";

/** Where a limit's counting runs: the caller's own transaction, or the server's own connection. */
type Executor = ScopedDb | Kysely<DB>;

function run<T>(executor: Executor, work: (trx: Kysely<DB> | Transaction<DB>) => Promise<T>): Promise<T> {
  return "identity" in executor ? executor.transaction(work) : work(executor);
}

/**
 * A sliding-window limit kept in the database (private.rate_limit_hits, docs/architecture.md#caches-and-several-processes), so
 * it holds across every server process on one database and across restarts. Each key allows
 * `attempts` per `windowMs`. `scope` keeps one set of limits apart from another (tests).
 */
export class RateLimiter {
  constructor(
    readonly name: string,
    readonly rule: LimitRule,
    readonly scope = "shop",
  ) {}

  #key(key: string) {
    return `${this.scope}:${this.name}:${key}`.slice(0, 300);
  }

  /**
   * The SQL that counts one action of `key` if it is allowed (`hit`), and is the milliseconds to
   * wait (0: allowed). For a statement that does more in the same call (checkout's first one).
   */
  takeSql(key: string, hit = true): RawBuilder<number> {
    return sql<number>`private.rate_limit_take(${this.#key(key)}, ${this.rule.attempts}, ${this.rule.windowMs}, ${hit})`;
  }

  async #take(executor: Executor, key: string, hit: boolean): Promise<number> {
    return run(executor, async (trx) => {
      const { rows } = await sql<{ wait: number }>`select ${this.takeSql(key, hit)} as wait`.execute(trx);
      return Number(rows[0]?.wait ?? 0);
    });
  }

  /** Milliseconds until `key` may act again (0: it may now); counts nothing. */
  retryAfter(executor: Executor, key: string): Promise<number> {
    return this.#take(executor, key, false);
  }

  /** Counts one action of `key` if it is allowed; else the milliseconds to wait, counting nothing. */
  take(executor: Executor, key: string): Promise<number> {
    return this.#take(executor, key, true);
  }

  /** Forgets `key`'s actions. */
  async reset(executor: Executor, key: string): Promise<void> {
    await run(executor, (trx) => sql`select private.rate_limit_reset(${this.#key(key)})`.execute(trx));
  }
}

/** The key of a signed-in caller's own limits (checkout, data export). */
export const userLimitKey = (userId: string) => `user:${userId}`;

/** The limits the API applies to whole procedures. */
export interface RequestLimits {
  signUp: RateLimiter;
  contact: RateLimiter;
  checkout: RateLimiter;
  dataExport: RateLimiter;
  /** Quote requests per customer (each mails the shop). */
  quoteRequest: RateLimiter;
  /** "Forgot password?" requests per client address and per e-mail address. */
  passwordResetByAddress: RateLimiter;
  passwordResetByEmail: RateLimiter;
}

/** The limits on sign-in attempts, kept by local auth. */
export interface SignInLimits {
  byEmail: RateLimiter;
  byAddress: RateLimiter;
}

/** The shop's limits; a test passes its own `scope` to start from zero. */
export function newRequestLimits(scope?: string): RequestLimits {
  return {
    signUp: new RateLimiter("sign-up", { ...SIGN_UP_LIMIT, attempts: env.SIGN_UPS_PER_ADDRESS_PER_HOUR ?? SIGN_UP_LIMIT.attempts }, scope),
    contact: new RateLimiter("contact", CONTACT_LIMIT, scope),
    checkout: new RateLimiter("checkout", CHECKOUT_LIMIT, scope),
    dataExport: new RateLimiter("data-export", DATA_EXPORT_LIMIT, scope),
    quoteRequest: new RateLimiter("quote-request", QUOTE_REQUEST_LIMIT, scope),
    passwordResetByAddress: new RateLimiter("password-reset-address", PASSWORD_RESET_ADDRESS_LIMIT, scope),
    passwordResetByEmail: new RateLimiter("password-reset-email", PASSWORD_RESET_EMAIL_LIMIT, scope),
  };
}

export function newSignInLimits(scope?: string): SignInLimits {
  return { byEmail: new RateLimiter("sign-in-email", SIGN_IN_EMAIL_LIMIT, scope), byAddress: new RateLimiter("sign-in-address", SIGN_IN_ADDRESS_LIMIT, scope) };
}

/**
 * The client's address for limits. Behind a trusted proxy (TRUST_PROXY), the address that proxy
 * appended to X-Forwarded-For (the last hop; earlier ones are what the client claimed).
 * Otherwise the production entry point (scripts/start.mjs) has already replaced the header with
 * the connection's own address, so the first value is the peer; under `next dev` Next.js fills
 * it from the socket when the client sent none.
 */
export function clientAddress(headers: Headers, trustProxy: boolean = env.TRUST_PROXY): string {
  const hops = (headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((hop) => hop.trim())
    .filter(Boolean);
  const address = trustProxy ? hops.at(-1) : hops[0];
  return address || "unknown";
}
