/**
 * What a server process keeps in memory from a slower source (the database, a render), for every
 * cache in the shop: sessions, profiles and cart counts, the catalogue, kept pages and answers
 * (docs/architecture.md#caches-and-several-processes). No database import: the proxy's bundle uses it too.
 */
import { LRUCache } from "lru-cache";

/** How much a KeptValues holds, and for how long. */
export interface KeptBounds<V> {
  /** How many values at most; the least recently used go first. */
  max: number;
  /** A value is read again once it has been kept this long, whatever is heard. */
  ttlMs: number;
  /**
   * For this long after `ttlMs`, `fill` may still hand out the old value, to callers whose
   * `servableStale` allows it, while it reads the value again (stale while refilling); 0 by default.
   * `get` never returns a value older than `ttlMs`.
   */
  staleMs?: number;
  /** With `sizeOf`: what all values may take together; the least recently used go first. */
  maxSize?: number;
  sizeOf?: (value: V) => number;
  /** The clock, in whole ms; read at each call, so a test may move it or fake Date. */
  now?: () => number;
}

/** A kept value, and when it was read (by the cache's clock). */
interface Kept<V> {
  value: V;
  at: number;
}

/**
 * Values by key, bounded in number (and size) and in time, dropped when the source says they
 * changed (`forget`, `forgetWhere`, `clear`).
 *
 * One rule keeps a drop from being undone: a read that started before a drop is not kept, since
 * it may hold what was dropped. A reader takes a `mark()` before reading and `set`s with it, or
 * lets `fill` do both. Any drop overtakes every read under way, not only its key's: the read is
 * still handed to its callers, and the next miss reads again.
 */
export class KeptValues<K extends NonNullable<unknown>, V> {
  // Boxed, so a value may be null or undefined (a user without a profile is known too).
  readonly #values: LRUCache<K, Kept<V>>;
  /** The reads under way by `fill`, which concurrent misses share. */
  readonly #filling = new Map<K, Promise<V>>();
  readonly #ttlMs: number;
  readonly #now: () => number;
  #drops = 0;

  constructor(bounds: KeptBounds<V>) {
    if (!(bounds.ttlMs > 1)) throw new RangeError("ttlMs must be more than 1 ms");
    const staleMs = bounds.staleMs ?? 0;
    if (!(staleMs >= 0)) throw new RangeError("staleMs must be 0 or more");
    const { sizeOf } = bounds;
    const now = bounds.now ?? (() => Date.now());
    this.#ttlMs = bounds.ttlMs;
    this.#now = now;
    this.#values = new LRUCache<K, Kept<V>>({
      max: bounds.max,
      // lru-cache keeps an entry while its age is at most `ttl`; ours goes when it reaches ttlMs + staleMs (whole ms).
      ttl: bounds.ttlMs + staleMs - 1,
      // Else lru-cache reuses one reading of the clock for a millisecond, by a timer a moved clock outruns.
      ttlResolution: 0,
      perf: { now },
      ...(sizeOf && { maxSize: bounds.maxSize, sizeCalculation: (kept: Kept<V>) => Math.max(1, sizeOf(kept.value)) }),
    });
  }

  /** The value kept for `key`, if any and still fresh; undefined also where undefined is kept. */
  get(key: K): V | undefined {
    const kept = this.#values.get(key);
    return kept && this.#fresh(kept) ? kept.value : undefined;
  }

  #fresh(kept: Kept<V>): boolean {
    return this.#now() - kept.at < this.#ttlMs;
  }

  /** Taken before reading from the source; `set` keeps the read only if nothing was dropped since. */
  mark(): number {
    return this.#drops;
  }

  /** Keeps a value read since `mark`, unless a drop overtook the read; says whether it was kept. */
  set(key: K, value: V, mark: number): boolean {
    if (mark !== this.#drops) return false;
    this.#values.set(key, { value, at: this.#now() });
    return true;
  }

  /**
   * The value kept for `key`, else `load`'s: one load for all the misses meanwhile, kept if
   * `keepable` says so and no drop overtook it. A failed load is not kept; its callers see it fail.
   *
   * A value older than `ttlMs` but within `staleMs` of it is handed out at once where
   * `servableStale` allows it, and read again meanwhile for the callers after it; a read again
   * that fails or that `keepable` refuses drops the old value, which is then not handed out again.
   */
  fill(key: K, load: () => Promise<V>, keepable: (value: V) => boolean = () => true, servableStale?: (value: V) => boolean): Promise<V> {
    const kept = this.#values.get(key);
    if (kept && this.#fresh(kept)) return Promise.resolve(kept.value);
    if (kept && servableStale?.(kept.value)) {
      // Its callers have their value; the read's own failure only drops the old one.
      this.#read(key, load, keepable, kept).catch(() => undefined);
      return Promise.resolve(kept.value);
    }
    return this.#read(key, load, keepable, kept);
  }

  /** The read of `key` under way, or a new one, which replaces or drops `old` (the stale value, if any). */
  #read(key: K, load: () => Promise<V>, keepable: (value: V) => boolean, old: Kept<V> | undefined): Promise<V> {
    const pending = this.#filling.get(key);
    if (pending) return pending;
    const mark = this.mark();
    const filling: Promise<V> = (async () => {
      try {
        const value = await load();
        if (keepable(value)) this.set(key, value, mark);
        else this.#dropOld(key, old);
        return value;
      } catch (error) {
        this.#dropOld(key, old);
        throw error;
      }
    })().finally(() => {
      if (this.#filling.get(key) === filling) this.#filling.delete(key);
    });
    this.#filling.set(key, filling);
    return filling;
  }

  #dropOld(key: K, old: Kept<V> | undefined): void {
    if (old && this.#values.peek(key, { allowStale: true }) === old) this.#values.delete(key);
  }

  /** `key` changed: drop it; a miss after this reads again rather than share a read under way. */
  forget(key: K): void {
    this.#drops++;
    this.#values.delete(key);
    this.#filling.delete(key);
  }

  /** Drops every value `changed` picks (e.g. a user's sessions). */
  forgetWhere(changed: (value: V, key: K) => boolean): void {
    this.#drops++;
    const keys: K[] = [];
    this.#values.forEach((kept, key) => {
      if (changed(kept.value, key)) keys.push(key);
    });
    for (const key of keys) this.#values.delete(key);
    // A read under way has no value yet to ask `changed` about.
    this.#filling.clear();
  }

  /** Everything may have changed. */
  clear(): void {
    this.#drops++;
    this.#values.clear();
    this.#filling.clear();
  }
}
