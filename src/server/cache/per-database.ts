import type { ShopDatabase } from "@/server/db/database";

/** What a cache hears from its database, and what stands in for it where it cannot hear. */
export interface Hearing<T, U> {
  /** The NOTIFY channels (src/server/db/channels.ts), each with what a notification does to the cache. */
  channels: Record<string, (cache: T, payload: string) => void>;
  /** Notifications may have been missed (a lost LISTEN connection is back). */
  onGap?: (cache: T) => void;
  /** What to hand out, having logged why, if the database cannot be listened to. */
  unheard: (cache: T, error: unknown, database: ShopDatabase) => U;
}

/**
 * One cache per database handle and process (docs/architecture.md#caches-and-several-processes), handed out once it listens to
 * its channels: nothing is kept before this process can hear that it changed. `create` is called
 * on the first request for a database; later ones get the same cache.
 */
export function perDatabase<T, U = T>(hearing: Hearing<T, U>): (database: ShopDatabase, create: () => T) => Promise<T | U> {
  const caches = new WeakMap<ShopDatabase, Promise<T | U>>();
  return (database, create) => {
    let cache = caches.get(database);
    if (!cache) {
      const created = create();
      const { onGap } = hearing;
      const options = onGap ? { onGap: () => onGap(created) } : {};
      cache = Promise.all(
        Object.entries(hearing.channels).map(([channel, heard]) => database.listen(channel, (payload) => heard(created, payload), options)),
      ).then(
        () => created,
        (error: unknown) => hearing.unheard(created, error, database),
      );
      caches.set(database, cache);
    }
    return cache;
  };
}
