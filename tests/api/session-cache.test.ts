/**
 * Sessions, profiles and cart counts kept in a server process's memory (docs/architecture.md#caches-and-several-processes): read
 * once, then from memory, and still revoked or changed everywhere at once through the database's
 * NOTIFY, whichever process (or SQL session) made the change.
 */
import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SessionUsers, sessionUsersFor } from "@/server/auth/session-user";
import { SESSION_CHANNEL } from "@/server/db/channels";
import { SessionCache, SESSION_CACHE_MS, sessionCacheFor } from "@/server/platform/adapters/local/session-cache";
import { SESSION_COOKIE } from "@/server/platform/adapters/local/session-token";
import { TestBrowser } from "../helpers/browser";
import { createUser, freshDatabase, type TestDatabase } from "../helpers/database";

let db: TestDatabase;
beforeAll(async () => {
  db = await freshDatabase();
});
afterAll(async () => {
  await db.close();
});

/**
 * What `read` gives once it gives `expected`, polling for up to 2 s: another process hears of a
 * change when its notification arrives (at once on PGlite, a moment later on PostgreSQL).
 */
async function eventually<T>(read: () => Promise<T>, expected: unknown): Promise<T> {
  const until = Date.now() + 2_000;
  for (;;) {
    const value = await read();
    if (JSON.stringify(value) === JSON.stringify(expected) || Date.now() > until) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A clock the test moves. */
function testClock() {
  let now = Date.now();
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

/** A second server process's session cache on the same database: its own memory, its own LISTEN. */
async function anotherProcess(now?: () => number): Promise<SessionCache> {
  const cache = new SessionCache(now);
  await db.listen(SESSION_CHANNEL, (payload) => cache.heard(payload));
  return cache;
}

/** Runs SQL as another tool might, without firing the tables' triggers (so nothing is announced). */
async function silently(statement: ReturnType<typeof sql>) {
  await db.kysely.transaction().execute(async (trx) => {
    await sql`set local session_replication_role = replica`.execute(trx);
    await statement.execute(trx);
  });
}

async function signedUp(sessions: SessionCache) {
  const browser = new TestBrowser(db, { sessions });
  const email = `kept-${randomUUID().slice(0, 8)}@example.test`;
  await browser.call((c) => c.auth.signUp({ fullName: "Kept Customer", email, password: "braai-2026", confirmPassword: "braai-2026", acceptTerms: true }));
  return { browser, email };
}

describe("a server process's sessions", () => {
  it("reads a session from the database once, then from memory until it expires there", async () => {
    const clock = testClock();
    const sessions = await anotherProcess(clock.now);
    const { browser, email } = await signedUp(sessions);
    expect(await browser.call((c) => c.auth.session())).toMatchObject({ email });
    // The row goes without a word to anyone: only memory still knows the session...
    await silently(sql`delete from auth.sessions where user_id = (select id from auth.users where email = ${email})`);
    expect(await browser.call((c) => c.auth.session())).toMatchObject({ email });
    // ...until its time in memory is up.
    clock.advance(SESSION_CACHE_MS);
    expect(await browser.call((c) => c.auth.session())).toBeNull();
  });

  it("refuses a signed-out session at once in every process", async () => {
    const here = await sessionCacheFor(db);
    const there = await anotherProcess();
    const { browser, email } = await signedUp(here!);
    const stolen = browser.cookies.get(SESSION_COOKIE)!;
    const elsewhere = new TestBrowser(db, { sessions: there });
    elsewhere.cookies.set(SESSION_COOKIE, stolen);
    expect(await elsewhere.call((c) => c.auth.session())).toMatchObject({ email });

    await browser.call((c) => c.auth.signOut());
    expect(await eventually(() => elsewhere.call((c) => c.auth.session()), null)).toBeNull();
    const replayed = new TestBrowser(db, { sessions: here });
    replayed.cookies.set(SESSION_COOKIE, stolen);
    expect(await replayed.call((c) => c.auth.session())).toBeNull();
  });

  it("refuses the sessions of an account deleted or changed by another process", async () => {
    const sessions = await anotherProcess();
    const deleted = await signedUp(sessions);
    const banned = await signedUp(sessions);
    expect(await deleted.browser.call((c) => c.auth.session())).not.toBeNull();
    expect(await banned.browser.call((c) => c.auth.session())).not.toBeNull();

    await sql`delete from auth.users where email = ${deleted.email}`.execute(db.kysely);
    await sql`update auth.users set deleted_at = now() where email = ${banned.email}`.execute(db.kysely);
    expect(await eventually(() => deleted.browser.call((c) => c.auth.session()), null)).toBeNull();
    expect(await eventually(() => banned.browser.call((c) => c.auth.session()), null)).toBeNull();
  });

  it("does not keep a session read before it was revoked", () => {
    const cache = new SessionCache();
    const user = { id: randomUUID(), email: null, userMetadata: {} };
    const sessionId = randomUUID();
    const mark = cache.mark();
    // The sign-out lands while the read is on its way back.
    cache.heard(`session:${sessionId}`);
    cache.set(sessionId, user, new Date(Date.now() + 60_000), mark);
    expect(cache.get(sessionId, user.id)).toBeUndefined();

    cache.set(sessionId, user, new Date(Date.now() + 60_000), cache.mark());
    expect(cache.get(sessionId, user.id)).toEqual(user);
    // Never for another user's token naming the same session, nor past the session's end.
    expect(cache.get(sessionId, randomUUID())).toBeUndefined();
    cache.set(sessionId, user, new Date(Date.now() - 1), cache.mark());
    expect(cache.get(sessionId, user.id)).toBeUndefined();
  });
});

describe("a server process's profiles and cart counts", () => {
  it("shows a role, name or picture changed elsewhere (e.g. npm run admin) on the next request", async () => {
    const users = await sessionUsersFor(db);
    const customer = await createUser(db, { fullName: "Sipho Before" });
    const auth = { id: customer.id, email: customer.email, userMetadata: {} };
    expect(await users.sessionUser(auth)).toMatchObject({ role: "user", displayName: "Sipho Before", avatarPath: null });

    await sql`update public.profiles set role = 'admin', full_name = 'Sipho After', avatar_path = ${`${customer.id}/me.png`} where id = ${customer.id}`.execute(db.kysely);
    const changed = await eventually(async () => (await users.sessionUser(auth))?.role, "admin");
    expect(changed).toBe("admin");
    expect(await users.sessionUser(auth)).toMatchObject({ role: "admin", displayName: "Sipho After", avatarPath: `${customer.id}/me.png` });
  });

  it("keeps a profile until it changes or its time is up", async () => {
    const clock = testClock();
    const users = new SessionUsers(db, { now: clock.now });
    await db.listen(SESSION_CHANNEL, (payload) => users.heard(SESSION_CHANNEL, payload));
    const customer = await createUser(db, { fullName: "Lindiwe" });
    const auth = { id: customer.id, email: customer.email, userMetadata: {} };
    expect((await users.sessionUser(auth))?.role).toBe("user");
    await silently(sql`update public.profiles set role = 'admin' where id = ${customer.id}`);
    expect((await users.sessionUser(auth))?.role).toBe("user");
    clock.advance(SESSION_CACHE_MS);
    expect((await users.sessionUser(auth))?.role).toBe("admin");
  });

  it("counts the cart again after any change to it, from this process or another", async () => {
    const users = await sessionUsersFor(db);
    const customer = await createUser(db);
    const auth = { id: customer.id, email: customer.email, userMetadata: {} };
    const [first] = await db.kysely.selectFrom("products").select("id").where("available", "=", true).limit(1).execute();
    expect(await users.withCartCount(auth)).toMatchObject({ cartCount: 0, user: { id: customer.id } });

    // Another process (or SQL session) adds to the cart: the trigger's notification drops the count.
    await sql`insert into public.cart_items (user_id, product_id, variant_id, quantity) select ${customer.id}, v.product_id, v.id, 2 from public.product_variants v where v.product_id = ${first!.id}`.execute(db.kysely);
    expect(await eventually(async () => (await users.withCartCount(auth))?.cartCount, 2)).toBe(2);

  });

  it("counts the cart again after the customer's own cart write through this process, before any notification", async () => {
    // Deaf to notifications: only the cart procedures' own word can drop the count.
    const users = new SessionUsers(db);
    const browser = new TestBrowser(db, { sessionUsers: users });
    const email = `own-${randomUUID().slice(0, 8)}@example.test`;
    await browser.call((c) => c.auth.signUp({ fullName: "Own Writer", email, password: "braai-2026", confirmPassword: "braai-2026", acceptTerms: true }));
    const user = await browser.call((c) => c.auth.session());
    const auth = { id: user!.id, email, userMetadata: {} };
    const [product] = await db.kysely.selectFrom("products").select("id").where("available", "=", true).limit(1).execute();
    expect((await users.withCartCount(auth))?.cartCount).toBe(0);
    await browser.call((c) => c.cart.add({ productId: product!.id }));
    expect((await users.withCartCount(auth))?.cartCount).toBe(1);
    const [line] = await db.kysely.selectFrom("cart_items").select("id").where("user_id", "=", user!.id).execute();
    await browser.call((c) => c.cart.increase({ lineId: line!.id }));
    expect((await users.withCartCount(auth))?.cartCount).toBe(2);
  });

  it("gives an admin no cart count", async () => {
    const users = await sessionUsersFor(db);
    const admin = await createUser(db, { role: "admin" });
    expect(await users.withCartCount({ id: admin.id, email: admin.email, userMetadata: {} })).toMatchObject({ cartCount: 0, user: { role: "admin" } });
  });
});
