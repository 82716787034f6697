import { parseSessionChange, SESSION_CHANNEL } from "@/server/db/channels";
import type { ShopDatabase } from "@/server/db/database";
import type { AuthUser } from "@/server/ports/auth";

/** A checked session is checked against the database again after this long, whatever is heard. */
export const SESSION_CACHE_MS = 30_000;
/** How many sessions are remembered at most (the oldest go first). */
export const MAX_CACHED_SESSIONS = 10_000;

interface Entry {
  user: AuthUser;
  /** When the session ends, in ms since the epoch. */
  notAfter: number;
  at: number;
}

/**
 * The local sessions this process has found valid lately (ARCHITECTURE §4, §13): the session id
 * of a verified token, with its user. A signed-in page or API call used to read auth.sessions
 * and auth.users on every request; now it does so once per session per SESSION_CACHE_MS.
 *
 * A session stays revocable everywhere: signing out or deleting the account drops it here at
 * once (the adapter calls `forgetSession`/`forgetUser`), and in every other process through the
 * triggers' NOTIFY on SESSION_CHANNEL. Only a notification lost while a PostgreSQL connection
 * was down can leave a revoked session usable here, for SESSION_CACHE_MS at most.
 */
export class SessionCache {
  readonly #entries = new Map<string, Entry>();
  /** Counts drops: a read that started before one is not kept (it may be what was revoked). */
  #generation = 0;

  constructor(private readonly now: () => number = Date.now) {}

  /** The user of a session checked lately and not revoked since, if it still runs. */
  get(sessionId: string, userId: string): AuthUser | undefined {
    const entry = this.#entries.get(sessionId);
    if (!entry) return undefined;
    const now = this.now();
    if (entry.user.id !== userId || now - entry.at >= SESSION_CACHE_MS || now >= entry.notAfter) {
      this.#entries.delete(sessionId);
      return undefined;
    }
    return entry.user;
  }

  /** A mark to pass to `set`: taken before reading the session from the database. */
  mark(): number {
    return this.#generation;
  }

  /** Remembers a session read from the database, unless something was dropped since `mark`. */
  set(sessionId: string, user: AuthUser, notAfter: Date, mark: number): void {
    if (mark !== this.#generation) return;
    if (this.#entries.size >= MAX_CACHED_SESSIONS) this.#entries.delete(this.#entries.keys().next().value!);
    this.#entries.set(sessionId, { user, notAfter: notAfter.getTime(), at: this.now() });
  }

  forgetSession(sessionId: string): void {
    this.#generation++;
    this.#entries.delete(sessionId);
  }

  forgetUser(userId: string): void {
    this.#generation++;
    for (const [sessionId, entry] of this.#entries) if (entry.user.id === userId) this.#entries.delete(sessionId);
  }

  clear(): void {
    this.#generation++;
    this.#entries.clear();
  }

  /** Applies a `session_changes` notification. */
  heard(payload: string): void {
    const change = parseSessionChange(payload);
    if (!change) return this.clear();
    if ("session" in change) this.forgetSession(change.session);
    else this.forgetUser(change.user);
  }
}

const caches = new WeakMap<ShopDatabase, Promise<SessionCache | undefined>>();

/**
 * The session cache of a database (one per process and database), listening from the start:
 * nothing is kept before this process can hear of a revocation. Without notifications it keeps
 * nothing at all.
 */
export function sessionCacheFor(database: ShopDatabase): Promise<SessionCache | undefined> {
  let cache = caches.get(database);
  if (!cache) {
    const created = new SessionCache();
    cache = database.listen(SESSION_CHANNEL, (payload) => created.heard(payload), { onGap: () => created.clear() }).then(
      () => created,
      (error: unknown) => {
        console.error("[auth] could not listen for session changes; sessions are read from the database each time:", error);
        return undefined;
      },
    );
    caches.set(database, cache);
  }
  return cache;
}
