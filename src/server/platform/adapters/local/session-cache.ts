import { KeptValues } from "@/server/cache/kept-values";
import { perDatabase } from "@/server/cache/per-database";
import { parseSessionChange, SESSION_CHANNEL } from "@/server/db/channels";
import type { ShopDatabase } from "@/server/db/database";
import type { AuthUser } from "@/server/ports/auth";

/** A checked session is checked against the database again after this long, whatever is heard. */
export const SESSION_CACHE_MS = 30_000;
/** How many sessions are remembered at most (the least recently used go first). */
export const MAX_CACHED_SESSIONS = 10_000;

interface Session {
  user: AuthUser;
  /** When the session ends, in ms since the epoch. */
  notAfter: number;
}

/**
 * The local sessions this process has found valid lately (docs/architecture.md#local-auth, #caches-and-several-processes): the session id
 * of a verified token, with its user. A signed-in page or API call used to read auth.sessions
 * and auth.users on every request; now it does so once per session per SESSION_CACHE_MS.
 *
 * A session stays revocable everywhere: signing out or deleting the account drops it here at
 * once (the adapter calls `forgetSession`/`forgetUser`), and in every other process through the
 * triggers' NOTIFY on SESSION_CHANNEL. Only a notification lost while a PostgreSQL connection
 * was down can leave a revoked session usable here, for SESSION_CACHE_MS at most.
 */
export class SessionCache {
  readonly #sessions: KeptValues<string, Session>;

  constructor(private readonly now: () => number = Date.now) {
    this.#sessions = new KeptValues({ max: MAX_CACHED_SESSIONS, ttlMs: SESSION_CACHE_MS, now });
  }

  /** The user of a session checked lately and not revoked since, if it still runs. */
  get(sessionId: string, userId: string): AuthUser | undefined {
    const session = this.#sessions.get(sessionId);
    if (!session) return undefined;
    if (session.user.id !== userId || this.now() >= session.notAfter) {
      this.#sessions.forget(sessionId);
      return undefined;
    }
    return session.user;
  }

  /** A mark to pass to `set`: taken before reading the session from the database. */
  mark(): number {
    return this.#sessions.mark();
  }

  /** Remembers a session read from the database, unless something was dropped since `mark` (it may be what was revoked). */
  set(sessionId: string, user: AuthUser, notAfter: Date, mark: number): void {
    this.#sessions.set(sessionId, { user, notAfter: notAfter.getTime() }, mark);
  }

  forgetSession(sessionId: string): void {
    this.#sessions.forget(sessionId);
  }

  forgetUser(userId: string): void {
    this.#sessions.forgetWhere((session) => session.user.id === userId);
  }

  clear(): void {
    this.#sessions.clear();
  }

  /** Applies a `session_changes` notification. */
  heard(payload: string): void {
    const change = parseSessionChange(payload);
    if (!change) return this.clear();
    if ("session" in change) this.forgetSession(change.session);
    else this.forgetUser(change.user);
  }
}

const caches = perDatabase<SessionCache, undefined>({
  channels: { [SESSION_CHANNEL]: (cache, payload) => cache.heard(payload) },
  onGap: (cache) => cache.clear(),
  unheard: (_cache, error) => {
    console.error("[auth] could not listen for session changes; sessions are read from the database each time:", error);
    return undefined;
  },
});

/**
 * The session cache of a database (one per process and database), listening from the start:
 * nothing is kept before this process can hear of a revocation. Without notifications it keeps
 * nothing at all.
 */
export function sessionCacheFor(database: ShopDatabase): Promise<SessionCache | undefined> {
  return caches(database, () => new SessionCache());
}
