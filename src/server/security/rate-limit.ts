import { CHECKOUT_LIMIT, CONTACT_LIMIT, SIGN_UP_LIMIT } from "@/lib/constants";

/**
 * A sliding-window counter kept in memory: enough for one server process (the embedded mode is
 * one process by design). Each key allows `limit` hits per `windowMs`.
 */
export class RateLimiter {
  readonly #hits = new Map<string, number[]>();

  constructor(
    readonly limit: number,
    readonly windowMs: number,
  ) {}

  #recent(key: string, now: number) {
    const hits = (this.#hits.get(key) ?? []).filter((at) => now - at < this.windowMs);
    if (hits.length === 0) this.#hits.delete(key);
    else this.#hits.set(key, hits);
    return hits;
  }

  /** Milliseconds until `key` may try again; 0 when it may now. */
  retryAfter(key: string, now = Date.now()): number {
    const hits = this.#recent(key, now);
    if (hits.length < this.limit) return 0;
    return this.windowMs - (now - hits[hits.length - this.limit]!);
  }

  hit(key: string, now = Date.now()) {
    const hits = this.#recent(key, now);
    hits.push(now);
    this.#hits.set(key, hits);
    if (this.#hits.size > 50_000) this.#sweep(now);
  }

  reset(key: string) {
    this.#hits.delete(key);
  }

  #sweep(now: number) {
    for (const key of [...this.#hits.keys()]) this.#recent(key, now);
  }
}

/** The client's address as the proxy in front reports it, else "unknown". */
export function clientAddress(headers: Headers): string {
  const forwarded = headers.get("x-forwarded-for")?.split(",")[0]?.trim();
  return forwarded || headers.get("x-real-ip") || "unknown";
}

/** The limits the API applies to whole procedures (sign-in keeps its own, inside local auth). */
export interface RequestLimits {
  signUp: RateLimiter;
  contact: RateLimiter;
  checkout: RateLimiter;
}

export function newRequestLimits(): RequestLimits {
  const limiter = ({ attempts, windowMs }: { attempts: number; windowMs: number }) => new RateLimiter(attempts, windowMs);
  return { signUp: limiter(SIGN_UP_LIMIT), contact: limiter(CONTACT_LIMIT), checkout: limiter(CHECKOUT_LIMIT) };
}
