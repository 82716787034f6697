import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cancelUnpaidOrders } from "@/server/orders/order-queries";
import { callerAs } from "../helpers/browser";
import { createUser, freshDatabase, type TestDatabase } from "../helpers/database";
import { placeTestOrder } from "../helpers/orders";

let db: TestDatabase;
let productId: string;

beforeAll(async () => {
  db = await freshDatabase();
  productId = (await db.kysely.selectFrom("products").select("id").executeTakeFirstOrThrow()).id;
});

afterAll(async () => {
  await db?.close();
});

/** Consumes a subscription in the background; the returned array fills as events arrive. */
function listen(iterable: AsyncIterable<unknown>): unknown[] {
  const events: unknown[] = [];
  void (async () => {
    for await (const event of iterable) events.push(event);
  })().catch(() => {});
  return events;
}

/** Waits until `events` holds `count` events, or `ms` passed; then returns a copy. */
async function settle(events: unknown[], count: number, ms = 1_500) {
  const until = Date.now() + ms;
  while (events.length < count && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
  return [...events];
}

const subscribed = () => new Promise((resolve) => setTimeout(resolve, 100));

describe("live updates (local: LISTEN/NOTIFY → subscription)", () => {
  it("tell a customer of their own cart changes and nothing of anyone else's", async () => {
    const a = await createUser(db);
    const b = await createUser(db);
    const events = listen(await (await callerAs(db, a)).live.changes());
    await subscribed();
    await (await callerAs(db, b)).cart.add({ productId });
    await (await callerAs(db, a)).cart.add({ productId });
    expect(await settle(events, 2, 800)).toEqual([{ table: "cart_items", op: "INSERT", id: expect.any(String) }]);
  });

  it("tell admins of every new order and status change, and customers of their own only", async () => {
    const admin = await createUser(db, { role: "admin" });
    const customer = await createUser(db);
    const bystander = await createUser(db);
    const adminEvents = listen(await (await callerAs(db, admin)).live.changes());
    const bystanderEvents = listen(await (await callerAs(db, bystander)).live.changes());
    await subscribed();
    const order = await placeTestOrder(db, customer, [productId]);
    expect(await settle(adminEvents, 1)).toEqual([{ table: "orders", op: "INSERT", id: order.id }]);
    await db.kysely.updateTable("orders").set({ status: "complete" }).where("id", "=", order.id).execute();
    expect(await settle(adminEvents, 2)).toEqual([
      { table: "orders", op: "INSERT", id: order.id },
      { table: "orders", op: "UPDATE", id: order.id },
    ]);
    expect(await settle(bystanderEvents, 1, 300)).toEqual([]);
  });

  it("tell a customer when the shop cancels their unpaid order, whoever's connection did it", async () => {
    const customer = await createUser(db);
    const order = await placeTestOrder(db, customer, [productId]);
    const events = listen(await (await callerAs(db, customer)).live.changes());
    await subscribed();
    await db.kysely.updateTable("orders").set({ created_at: new Date(Date.now() - 8 * 86_400_000) }).where("id", "=", order.id).execute();
    await settle(events, 1);
    events.length = 0;
    // The server's timer runs on the privileged connection, not as the customer.
    expect(await cancelUnpaidOrders(db.kysely, 7)).toBeGreaterThanOrEqual(1);
    expect(await settle(events, 1)).toEqual([{ table: "orders", op: "UPDATE", id: order.id }]);
    const [mine] = await (await callerAs(db, customer)).orders.mine();
    expect(mine).toMatchObject({ id: order.id, status: "cancelled" });
    expect(mine!.history.at(-1)).toMatchObject({ to: "cancelled", by: null, reason: "not paid within 7 days" });
  });

  it("tell admins of a new contact message, and neither its sender nor other customers", async () => {
    const admin = await createUser(db, { role: "admin" });
    const customer = await createUser(db);
    const adminEvents = listen(await (await callerAs(db, admin)).live.changes());
    const customerEvents = listen(await (await callerAs(db, customer)).live.changes());
    await subscribed();
    const send = (name: string) => ({ name, email: "sender@example.test", phone: "", message: "Do you deliver to Soweto?" });
    await (await callerAs(db, null)).contact.send(send("Sipho"));
    // A signed-in customer's message has their user_id, yet it is for the shop's eyes only.
    await (await callerAs(db, customer)).contact.send(send("Thandi"));
    const heard = await settle(adminEvents, 2);
    expect(heard).toEqual([
      { table: "contact_messages", op: "INSERT", id: expect.any(String) },
      { table: "contact_messages", op: "INSERT", id: expect.any(String) },
    ]);
    expect(await settle(customerEvents, 1, 300)).toEqual([]);
    // The event has the id only; an admin reads the rest, a customer may not.
    const [first] = heard as { id: string }[];
    expect(await (await callerAs(db, admin)).contact.notice({ id: first!.id })).toEqual({ id: first!.id, name: "Sipho" });
    await expect((await callerAs(db, customer)).contact.notice({ id: first!.id })).rejects.toMatchObject({ code: "FORBIDDEN" });
  });

  it("give admins what a new order's notice says, by the id the event carried", async () => {
    const admin = await createUser(db, { role: "admin" });
    const customer = await createUser(db, { fullName: "Thandi Nkosi" });
    const events = listen(await (await callerAs(db, admin)).live.changes());
    await subscribed();
    const order = await placeTestOrder(db, customer, [productId]);
    const [event] = (await settle(events, 1)) as { id: string }[];
    expect(await (await callerAs(db, admin)).adminOrders.notice({ id: event!.id })).toEqual({
      id: order.id,
      reference: order.reference,
      customerName: "Thandi Nkosi",
      total: Number(order.total),
      booking: null,
    });
  });

  it("are only for signed-in users", async () => {
    await expect((await callerAs(db, null)).live.changes()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });
});
