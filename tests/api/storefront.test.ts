import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { messages } from "@/lib/messages";
import { callerAs } from "../helpers/browser";
import { createUser, freshDatabase, type TestDatabase, type TestUser } from "../helpers/database";

let db: TestDatabase;
let customer: TestUser;
let admin: TestUser;

beforeAll(async () => {
  db = await freshDatabase();
  customer = await createUser(db, { fullName: "Sizwe" });
  admin = await createUser(db, { role: "admin" });
});

afterAll(async () => {
  await db?.close();
});

async function codeOf(promise: Promise<unknown>) {
  return promise.then(
    () => "OK",
    (error: { code?: string; message?: string }) => `${error.code}: ${error.message}`,
  );
}

describe("cart.add", () => {
  it("adds a new line with '{name} added to cart.' and then raises it with 'quantity updated'", async () => {
    const caller = await callerAs(db, customer);
    const [product] = await caller.catalogue.list();
    expect(await caller.cart.add({ productId: product!.id })).toEqual({ quantity: 1, message: messages.cart.added(product!.name) });
    expect(await caller.cart.add({ productId: product!.id })).toEqual({ quantity: 2, message: messages.cart.quantityUpdated(product!.name) });
    expect(await caller.cart.count()).toBe(2);
  });

  it("asks visitors to sign in, and keeps admins out of carts", async () => {
    const [product] = await (await callerAs(db, null)).catalogue.list();
    expect(await codeOf((await callerAs(db, null)).cart.add({ productId: product!.id }))).toMatch(/^UNAUTHORIZED/);
    expect(await codeOf((await callerAs(db, admin)).cart.add({ productId: product!.id }))).toBe(`FORBIDDEN: ${messages.cart.customersOnly}`);
  });

  it("refuses an unavailable product and a malformed id, changing nothing", async () => {
    const caller = await callerAs(db, customer);
    const before = await caller.cart.count();
    const [product] = await caller.catalogue.list();
    await db.kysely.updateTable("products").set({ available: false }).where("id", "=", product!.id).execute();
    expect(await codeOf(caller.cart.add({ productId: product!.id }))).toBe(`BAD_REQUEST: ${messages.cart.unavailable}`);
    await db.kysely.updateTable("products").set({ available: true }).where("id", "=", product!.id).execute();
    expect(await codeOf(caller.cart.add({ productId: "not-a-uuid" }))).toBe("BAD_REQUEST: Unknown product.");
    expect(await caller.cart.count()).toBe(before);
  });
});

describe("contact", () => {
  const message = { name: "Mpho", email: "Mpho@Example.test", phone: "+27 82 555 0101", message: "Please quote for weekly cleaning." };

  it("stores a visitor's message and confirms it", async () => {
    const result = await (await callerAs(db, null)).contact.send(message);
    expect(result.message).toBe(messages.contact.sent("Mpho"));
    const stored = await db.kysely.selectFrom("contact_messages").selectAll().where("name", "=", "Mpho").executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ email: "mpho@example.test", phone: "+27 82 555 0101", read_at: null, user_id: null });
  });

  it.each([
    [{ name: "" }, messages.contact.nameRequired],
    [{ email: "nope" }, messages.auth.invalidEmail],
    [{ phone: "call me" }, messages.contact.phoneInvalid],
    [{ message: "   " }, messages.contact.messageRequired],
    [{ message: "x".repeat(5001) }, messages.contact.tooLong("Your message", 5000)],
  ])("refuses %o with a clear message and stores nothing", async (override, text) => {
    const count = async () => (await db.kysely.selectFrom("contact_messages").select("id").execute()).length;
    const before = await count();
    expect(await codeOf((await callerAs(db, null)).contact.send({ ...message, ...override }))).toBe(`BAD_REQUEST: ${text}`);
    expect(await count()).toBe(before);
  });

  it("lets only admins read messages and mark them read", async () => {
    expect(await codeOf((await callerAs(db, null)).contact.list())).toMatch(/^UNAUTHORIZED/);
    expect(await codeOf((await callerAs(db, customer)).contact.list())).toMatch(/^FORBIDDEN/);
    const adminCaller = await callerAs(db, admin);
    const [latest] = await adminCaller.contact.list();
    expect(latest).toMatchObject({ name: "Mpho", read_at: null });
    await adminCaller.contact.markRead({ id: latest!.id, read: true });
    expect((await adminCaller.contact.list())[0]!.read_at).toBeInstanceOf(Date);
  });
});
