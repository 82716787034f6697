import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { messages } from "@/lib/messages";
import { callerAs, type Caller } from "../helpers/browser";
import { createUser, freshDatabase, type TestDatabase, type TestUser } from "../helpers/database";
import { placeTestOrder } from "../helpers/orders";
import { cancelUnpaidOrders } from "@/server/orders/order-queries";

let db: TestDatabase;
let admin: Caller;
let adminUser: TestUser;
let alice: TestUser;
let bob: TestUser;
let productId: string;

beforeAll(async () => {
  db = await freshDatabase();
  adminUser = await createUser(db, { role: "admin", fullName: "Shop Owner" });
  admin = await callerAs(db, adminUser);
  alice = await createUser(db, { fullName: "Alice", email: "alice@example.test" });
  bob = await createUser(db, { fullName: "Bob", email: "bob@example.test" });
  productId = (await db.kysely.selectFrom("products").select("id").executeTakeFirstOrThrow()).id;
});

afterAll(async () => {
  await db?.close();
});

async function outcome(promise: Promise<unknown>) {
  return promise.then(
    () => "OK",
    (error: { code: string; message: string }) => `${error.code}: ${error.message}`,
  );
}

describe("adminOrders", () => {
  it("every procedure: admin allowed, customer FORBIDDEN, visitor UNAUTHORIZED", async () => {
    const order = await placeTestOrder(db, alice, [productId]);
    for (const [caller, code] of [
      [await callerAs(db, alice), "FORBIDDEN"],
      [await callerAs(db, null), "UNAUTHORIZED"],
    ] as const) {
      expect(await outcome(caller.adminOrders.list())).toMatch(new RegExp(`^${code}`));
      expect(await outcome(caller.adminOrders.counts())).toMatch(new RegExp(`^${code}`));
      expect(await outcome(caller.adminOrders.updateStatus({ id: order.id, status: "complete" }))).toMatch(new RegExp(`^${code}`));
    }
    expect((await db.kysely.selectFrom("orders").select("status").where("id", "=", order.id).executeTakeFirstOrThrow()).status).toBe("pending_payment");
  });

  it("lists every customer's orders newest first, with items and an access-checked proof URL", async () => {
    const first = await placeTestOrder(db, alice, [productId]);
    const second = await placeTestOrder(db, bob, [productId, productId]);
    const { orders } = await admin.adminOrders.list();
    const ids = orders.map((order) => order.id);
    expect(ids.indexOf(second.id)).toBeLessThan(ids.indexOf(first.id));
    const bobs = orders.find((order) => order.id === second.id)!;
    expect(bobs).toMatchObject({ customerName: "Bob", customerEmail: "bob@example.test", status: "pending_payment" });
    expect(bobs.items).toEqual([expect.objectContaining({ quantity: 2, productId })]);
    expect(bobs.proofUrl).toMatch(new RegExp(`^/files/payments/${bob.id}/`));
  });

  it("filters by status and searches by reference or email", async () => {
    const order = await placeTestOrder(db, bob, [productId]);
    await admin.adminOrders.updateStatus({ id: order.id, status: "cancelled" });
    expect((await admin.adminOrders.list({ status: "cancelled" })).orders.map((o) => o.id)).toEqual([order.id]);
    expect((await admin.adminOrders.list({ search: order.reference.toLowerCase() })).orders.map((o) => o.id)).toEqual([order.id]);
    const { orders: byEmail } = await admin.adminOrders.list({ search: "ALICE@example" });
    expect(byEmail.length).toBeGreaterThan(0);
    expect(byEmail.every((o) => o.customerEmail === "alice@example.test")).toBe(true);
    expect(await admin.adminOrders.list({ search: "%" })).toEqual({ orders: [], nextCursor: null });
  });

  it("changes a status with the spec's message and records who, when, from and to", async () => {
    const order = await placeTestOrder(db, alice, [productId]);
    expect(await admin.adminOrders.updateStatus({ id: order.id, status: "pending_delivery" })).toEqual({
      message: messages.adminOrders.updated(order.reference, "Pending Delivery"),
    });
    const [view] = (await admin.adminOrders.list({ search: order.reference })).orders;
    expect(view!.history.map((e) => [e.from, e.to, e.by, e.reason])).toEqual([
      [null, "pending_payment", "Alice", null],
      ["pending_payment", "pending_delivery", "Shop Owner", null],
    ]);
    // The customer sees the new status in their own history.
    const mine = await (await callerAs(db, alice)).orders.mine();
    expect(mine.find((o) => o.id === order.id)!.status).toBe("pending_delivery");
  });

  it("shows orders not paid within the limit cancelled by the shop's timer, with the reason in the history; reading changes nothing", async () => {
    const old = await placeTestOrder(db, alice, [productId]);
    const young = await placeTestOrder(db, alice, [productId]);
    await db.kysely.updateTable("orders").set({ created_at: new Date(Date.now() - 8 * 86_400_000) }).where("id", "=", old.id).execute();
    // Reads are reads: the list, its counts and the overview leave the order as it is.
    expect((await admin.adminOrders.list({ search: old.reference })).orders[0]).toMatchObject({ status: "pending_payment" });
    await admin.adminOrders.counts({});
    await admin.overview.summary();
    expect((await admin.adminOrders.list({ search: old.reference })).orders[0]).toMatchObject({ status: "pending_payment" });
    // The server's timer (unpaid-orders.ts) runs the policy on the shop's own connection.
    expect(await cancelUnpaidOrders(db.kysely, 7)).toBe(1);
    const { orders } = await admin.adminOrders.list({ search: "alice@example" });
    expect(orders.find((o) => o.id === old.id)).toMatchObject({ status: "cancelled" });
    expect(orders.find((o) => o.id === old.id)!.history.at(-1)).toMatchObject({
      from: "pending_payment",
      to: "cancelled",
      by: null,
      reason: messages.adminOrders.unpaidReason(7),
    });
    expect(orders.find((o) => o.id === young.id)).toMatchObject({ status: "pending_payment" });
    // The customer's purchase history shows it too.
    const mine = await (await callerAs(db, alice)).orders.mine();
    expect(mine.find((o) => o.id === old.id)).toMatchObject({ status: "cancelled" });
  });

  it("refuses an unknown status or order", async () => {
    const order = await placeTestOrder(db, alice, [productId]);
    expect(await outcome(admin.adminOrders.updateStatus({ id: order.id, status: "shipped" as never }))).toMatch(/^BAD_REQUEST/);
    expect(await outcome(admin.adminOrders.updateStatus({ id: "00000000-0000-4000-8000-000000000000", status: "complete" }))).toBe(
      `NOT_FOUND: ${messages.adminOrders.updateFailed}`,
    );
  });
});
