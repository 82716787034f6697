/**
 * The one cache every per-process cache is built on (src/server/cache/): its bounds, its drops,
 * and the rule that a read overtaken by a drop is not kept; and one cache per database, listening.
 */
import { describe, expect, it, vi } from "vitest";
import { KeptValues } from "@/server/cache/kept-values";
import { perDatabase } from "@/server/cache/per-database";
import type { ListenOptions, NotificationListener, ShopDatabase } from "@/server/db/database";

/** A clock the test moves. */
function testClock() {
  let now = 1_000_000;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

/** A read the test finishes when it likes. */
function pendingRead<T>() {
  let finish!: (value: T) => void;
  let fail!: (error: Error) => void;
  const promise = new Promise<T>((resolve, reject) => {
    finish = resolve;
    fail = reject;
  });
  return { promise, finish, fail };
}

describe("kept values", () => {
  it("keep a value until its time is up, and no longer", () => {
    const clock = testClock();
    const kept = new KeptValues<string, string>({ max: 10, ttlMs: 30_000, now: clock.now });
    kept.set("a", "one", kept.mark());
    clock.advance(29_999);
    expect(kept.get("a")).toBe("one");
    clock.advance(1);
    expect(kept.get("a")).toBeUndefined();
  });

  it("keep at most `max`, the least recently used going first", () => {
    const kept = new KeptValues<string, number>({ max: 3, ttlMs: 60_000 });
    for (const [key, value] of [["a", 1], ["b", 2], ["c", 3]] as const) kept.set(key, value, kept.mark());
    expect(kept.get("a")).toBe(1);
    kept.set("d", 4, kept.mark());
    expect(kept.get("b")).toBeUndefined();
    expect([kept.get("a"), kept.get("c"), kept.get("d")]).toEqual([1, 3, 4]);
  });

  it("keep at most `maxSize` in all, and nothing larger than it", () => {
    const kept = new KeptValues<string, string>({ max: 100, maxSize: 10, sizeOf: (text) => text.length, ttlMs: 60_000 });
    kept.set("a", "aaaa", kept.mark());
    kept.set("b", "bbbb", kept.mark());
    kept.get("a");
    kept.set("c", "cccc", kept.mark());
    expect([kept.get("a"), kept.get("b"), kept.get("c")]).toEqual(["aaaa", undefined, "cccc"]);
    kept.set("huge", "x".repeat(11), kept.mark());
    expect(kept.get("huge")).toBeUndefined();
  });

  it("know a value of null or undefined apart from no value", async () => {
    const kept = new KeptValues<string, string | null | undefined>({ max: 10, ttlMs: 60_000 });
    kept.set("nobody", null, kept.mark());
    expect(kept.get("nobody")).toBeNull();
    const load = vi.fn(async () => undefined);
    await kept.fill("missing", load);
    await kept.fill("missing", load);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it("drop one key, the keys a predicate picks, or everything", () => {
    const kept = new KeptValues<string, { user: string }>({ max: 10, ttlMs: 60_000 });
    for (const [session, user] of [["s1", "u1"], ["s2", "u1"], ["s3", "u2"], ["s4", "u3"]]) kept.set(session!, { user: user! }, kept.mark());
    kept.forget("s4");
    expect(kept.get("s4")).toBeUndefined();
    kept.forgetWhere((session) => session.user === "u1");
    expect([kept.get("s1"), kept.get("s2"), kept.get("s3")]).toEqual([undefined, undefined, { user: "u2" }]);
    kept.clear();
    expect(kept.get("s3")).toBeUndefined();
  });

  it.each([
    ["forget", (kept: KeptValues<string, string>) => kept.forget("a")],
    ["forgetWhere", (kept: KeptValues<string, string>) => kept.forgetWhere(() => false)],
    ["clear", (kept: KeptValues<string, string>) => kept.clear()],
  ])("do not keep a read overtaken by %s", (_drop, drop) => {
    const kept = new KeptValues<string, string>({ max: 10, ttlMs: 60_000 });
    const mark = kept.mark();
    // The change lands while the read is on its way back.
    drop(kept);
    expect(kept.set("a", "stale", mark)).toBe(false);
    expect(kept.get("a")).toBeUndefined();
    expect(kept.set("a", "fresh", kept.mark())).toBe(true);
    expect(kept.get("a")).toBe("fresh");
  });

  it("fill a miss once for all its callers, and keep it", async () => {
    const kept = new KeptValues<string, string>({ max: 10, ttlMs: 60_000 });
    const read = pendingRead<string>();
    const load = vi.fn(() => read.promise);
    const misses = [kept.fill("a", load), kept.fill("a", load)];
    read.finish("one");
    expect(await Promise.all(misses)).toEqual(["one", "one"]);
    expect(await kept.fill("a", load)).toBe("one");
    expect(load).toHaveBeenCalledTimes(1);
  });

  it("hand a fill overtaken by a drop to its callers without keeping it; a miss after the drop reads again", async () => {
    const kept = new KeptValues<string, string>({ max: 10, ttlMs: 60_000 });
    const before = pendingRead<string>();
    const underWay = kept.fill("a", () => before.promise);
    kept.clear();
    const after = kept.fill("a", async () => "after");
    before.finish("before");
    expect(await underWay).toBe("before");
    expect(await after).toBe("after");
    expect(kept.get("a")).toBe("after");
  });

  it("keep no failed fill, nor one `keepable` refuses", async () => {
    const kept = new KeptValues<string, string>({ max: 10, ttlMs: 60_000 });
    await expect(kept.fill("a", async () => Promise.reject(new Error("down")))).rejects.toThrow("down");
    expect(await kept.fill("a", async () => "up")).toBe("up");
    expect(await kept.fill("b", async () => "not found", (value) => value !== "not found")).toBe("not found");
    expect(kept.get("b")).toBeUndefined();
  });

  describe("past its time (staleMs)", () => {
    const stale = () => true;
    async function keptPastItsTime() {
      const clock = testClock();
      const kept = new KeptValues<string, string>({ max: 10, ttlMs: 1_000, staleMs: 5_000, now: clock.now });
      await kept.fill("a", async () => "one");
      clock.advance(1_000);
      return { kept, clock };
    }

    it("hand out the old value at once where allowed, read it again once for everyone, and keep the new one", async () => {
      const { kept } = await keptPastItsTime();
      expect(kept.get("a")).toBeUndefined();
      const read = pendingRead<string>();
      const load = vi.fn(() => read.promise);
      expect(await kept.fill("a", load, undefined, stale)).toBe("one");
      expect(await kept.fill("a", load, undefined, stale)).toBe("one");
      // A caller that may not have it waits for the read under way.
      const fresh = kept.fill("a", load, undefined, () => false);
      read.finish("two");
      expect(await fresh).toBe("two");
      expect(load).toHaveBeenCalledTimes(1);
      expect(kept.get("a")).toBe("two");
      expect(await kept.fill("a", load, undefined, stale)).toBe("two");
      expect(load).toHaveBeenCalledTimes(1);
    });

    it("never hand out a value staleMs past its time, nor one whose caller refuses it", async () => {
      const { kept, clock } = await keptPastItsTime();
      expect(await kept.fill("a", async () => "two", undefined, (value) => value !== "one")).toBe("two");
      clock.advance(1_000 + 4_999);
      expect(await kept.fill("a", async () => "three", undefined, stale)).toBe("two");
      await vi.waitFor(() => expect(kept.get("a")).toBe("three"));
      clock.advance(1_000 + 5_000);
      expect(await kept.fill("a", async () => "four", undefined, stale)).toBe("four");
    });

    it("drop the old value when the read again fails or `keepable` refuses it", async () => {
      const { kept, clock } = await keptPastItsTime();
      const failing = vi.fn(async () => Promise.reject(new Error("down")));
      expect(await kept.fill("a", failing, undefined, stale)).toBe("one");
      expect(failing).toHaveBeenCalledTimes(1);
      await new Promise((settled) => setImmediate(settled));
      await expect(kept.fill("a", failing, undefined, stale)).rejects.toThrow("down");

      await kept.fill("b", async () => "page");
      clock.advance(1_000);
      expect(await kept.fill("b", async () => "gone", (value) => value !== "gone", stale)).toBe("page");
      await expect.poll(() => kept.fill("b", async () => "back", undefined, stale)).toBe("back");
    });

    it("keep no read again that a drop overtook, and hand out nothing old after a drop", async () => {
      const { kept } = await keptPastItsTime();
      const read = pendingRead<string>();
      expect(await kept.fill("a", () => read.promise, undefined, stale)).toBe("one");
      kept.clear();
      read.finish("before the drop");
      expect(await kept.fill("a", async () => "after the drop", undefined, stale)).toBe("after the drop");
      expect(kept.get("a")).toBe("after the drop");
    });
  });
});

/** A database that only listens (or cannot), as ShopDatabase.listen does. */
function listeningDatabase(fails = false) {
  const listeners = new Map<string, NotificationListener>();
  const gaps: (() => void)[] = [];
  const listen = vi.fn(async (channel: string, listener: NotificationListener, options?: ListenOptions) => {
    if (fails) throw new Error("LISTEN refused");
    listeners.set(channel, listener);
    if (options?.onGap) gaps.push(options.onGap);
    return async () => {};
  });
  const database = { engine: "postgres", listen } as unknown as ShopDatabase;
  return { database, listen, notify: (channel: string, payload: string) => listeners.get(channel)?.(payload), gap: () => gaps.forEach((onGap) => onGap()) };
}

describe("one cache per database", () => {
  const heardBy = () => {
    const heard: string[] = [];
    return { heard, cache: { heard, gaps: 0 } };
  };

  it("is created and listens once per database, and hears its channels and gaps", async () => {
    const cacheFor = perDatabase<{ heard: string[]; gaps: number }>({
      channels: { one: (cache, payload) => cache.heard.push(`one ${payload}`), two: (cache, payload) => cache.heard.push(`two ${payload}`) },
      onGap: (cache) => cache.gaps++,
      unheard: (cache) => cache,
    });
    const first = listeningDatabase();
    const create = vi.fn(() => heardBy().cache);
    const cache = await cacheFor(first.database, create);
    expect(await cacheFor(first.database, create)).toBe(cache);
    expect(create).toHaveBeenCalledTimes(1);
    expect(first.listen).toHaveBeenCalledTimes(2);
    first.notify("one", "a");
    first.notify("two", "b");
    expect(cache.heard).toEqual(["one a", "two b"]);
    first.gap();
    expect(cache.gaps).toBeGreaterThan(0);

    const second = listeningDatabase();
    expect(await cacheFor(second.database, create)).not.toBe(cache);
  });

  it("hands out what `unheard` gives where the database cannot be listened to", async () => {
    const unheard = vi.fn(() => undefined);
    const cacheFor = perDatabase<{ heard: string[] }, undefined>({ channels: { one: () => {} }, unheard });
    expect(await cacheFor(listeningDatabase(true).database, () => heardBy().cache)).toBeUndefined();
    expect(unheard).toHaveBeenCalledWith(expect.anything(), expect.any(Error), expect.anything());
  });
});
