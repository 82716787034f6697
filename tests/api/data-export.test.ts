import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { messages } from "@/lib/messages";
import { trpcRefusal } from "../helpers/attempt";
import { callerAs, freshRequestLimits, type Caller } from "../helpers/browser";
import { createUser, freshDatabase, type TestDatabase, type TestUser } from "../helpers/database";
import { fileOf, makePng } from "../helpers/images";

/** POPIA's right of access: "Download my data" gives customers their own data, and only theirs. */
let db: TestDatabase;
let productId: string;

beforeAll(async () => {
  db = await freshDatabase();
  productId = (await db.kysely.selectFrom("products").select("id").where("available", "=", true).limit(1).executeTakeFirstOrThrow()).id;
});

afterAll(async () => {
  await db?.close();
});

async function customerWithOrder(name: string): Promise<{ user: TestUser; caller: Caller; reference: string }> {
  const user = await createUser(db, { fullName: name });
  const caller = await callerAs(db, user);
  await caller.cart.add({ productId });
  await caller.cart.add({ productId });
  const { reference } = await caller.checkout.start();
  if (!reference) throw new Error("a cart with items has a reference");
  const form = new FormData();
  form.set("proof", fileOf(makePng(8, 8), "proof.png"));
  form.set("reference", reference);
  form.set("idempotencyKey", randomUUID());
  const placed = await caller.checkout.placeOrder(form);
  await caller.cart.add({ productId });
  return { user, caller, reference: placed.reference };
}

describe("download my data", () => {
  it("holds the customer's profile, orders with items and history, cart and files, and nothing of anyone else's", async () => {
    const alice = await customerWithOrder("Alice Dlamini");
    const bob = await customerWithOrder("Bob Mokoena");
    const data = await alice.caller.profile.exportData();

    expect(data.account).toMatchObject({ id: alice.user.id, email: alice.user.email, fullName: "Alice Dlamini", role: "user" });
    expect(data.orders.map((order) => order.reference)).toEqual([alice.reference]);
    const [order] = data.orders;
    expect(order!.items).toEqual([expect.objectContaining({ quantity: 2 })]);
    expect(order!.status).toBe("pending_payment");
    expect(order!.statusHistory.map((event) => event.to)).toEqual(["pending_payment"]);
    expect(data.cart).toEqual([expect.objectContaining({ quantity: 1 })]);
    expect(data.storedFiles.map((file) => file.bucket)).toEqual(["payments"]);
    expect(data.storedFiles.every((file) => file.path.startsWith(`${alice.user.id}/`))).toBe(true);

    const text = JSON.stringify(data);
    expect(text).not.toContain(bob.reference);
    expect(text).not.toContain(bob.user.id);
    expect(text).not.toContain("Bob Mokoena");
  });

  it("is for signed-in users only", async () => {
    expect((await trpcRefusal((await callerAs(db, null)).profile.exportData())).code).toBe("UNAUTHORIZED");
  });

  it("is rate-limited per customer", async () => {
    const user = await createUser(db);
    const caller = await callerAs(db, user, { limits: freshRequestLimits() });
    for (let i = 0; i < 5; i++) await caller.profile.exportData();
    const refused = await trpcRefusal(caller.profile.exportData());
    expect(refused.code).toBe("TOO_MANY_REQUESTS");
    expect(refused.message).toBe(messages.security.slowDown(60));
  });
});
