import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { messages } from "@/lib/messages";
import { ANON, runAs } from "@/server/db/as-caller";
import type { OrderStatus } from "@/server/db/schema";
import { cancelUnpaidOrders } from "@/server/orders/order-queries";
import { startUnpaidOrderTimer } from "@/server/orders/unpaid-orders";
import { errorMessage } from "../helpers/attempt";
import { createUser, freshDatabase, type TestDatabase, type TestUser } from "../helpers/database";
import { placeTestOrder } from "../helpers/orders";

/**
 * public.cancel_unpaid_orders(days): the shop's unpaid-order policy (issue 16 item 5), on PGlite
 * and, with DATABASE_URL, on PostgreSQL. Orders are backdated on the privileged connection.
 */

let db: TestDatabase;
let customer: TestUser;
let admin: TestUser;
let pie: string;

beforeAll(async () => {
  db = await freshDatabase({ seed: false });
  const category = await db.kysely.insertInto("categories").values({ name: "Food Products" }).returning("id").executeTakeFirstOrThrow();
  pie = (await db.kysely.insertInto("products").values({ name: "Chicken pie", price: "35.00", category_id: category.id, image_path: null }).returning("id").executeTakeFirstOrThrow()).id;
  customer = await createUser(db, { fullName: "Thandi Nkosi" });
  admin = await createUser(db, { role: "admin", fullName: "Shop Owner" });
});

afterAll(async () => {
  await db?.close();
});

/** An order of `customer` placed `daysAgo` days ago, with `status`. */
async function orderPlaced(daysAgo: number, status: OrderStatus = "pending_payment") {
  const order = await placeTestOrder(db, customer, [pie]);
  await db.kysely
    .updateTable("orders")
    .set({ created_at: sql<Date>`now() - make_interval(secs => ${daysAgo * 86_400})`, ...(status === "pending_payment" ? {} : { status }) })
    .where("id", "=", order.id)
    .execute();
  return order;
}

function statusOf(id: string) {
  return db.kysely.selectFrom("orders").select("status").where("id", "=", id).executeTakeFirstOrThrow().then((row) => row.status);
}

function historyOf(id: string) {
  return db.kysely
    .selectFrom("order_status_events")
    .select(["from_status", "to_status", "changed_by", "reason"])
    .where("order_id", "=", id)
    .orderBy("id")
    .execute();
}

/** Every order still pending_payment is out of the way of the next test (each counts what it cancels). */
async function settleEverything() {
  await db.kysely.updateTable("orders").set({ status: "complete" }).where("status", "=", "pending_payment").execute();
}

describe(`cancel_unpaid_orders (${process.env.DATABASE_URL ? "postgres" : "pglite"})`, () => {
  it("cancels an order older than the limit once, with a history row that names the shop's reason and no person", async () => {
    await settleEverything();
    const old = await orderPlaced(8);
    expect(await cancelUnpaidOrders(db.kysely, 7)).toBe(1);
    expect(await statusOf(old.id)).toBe("cancelled");
    expect(await historyOf(old.id)).toEqual([
      { from_status: null, to_status: "pending_payment", changed_by: customer.id, reason: null },
      { from_status: "pending_payment", to_status: "cancelled", changed_by: null, reason: messages.adminOrders.unpaidReason(7) },
    ]);
    expect(messages.adminOrders.unpaidReason(7)).toBe("not paid within 7 days");

    // Running again changes nothing more: no second cancellation, no second history row.
    expect(await cancelUnpaidOrders(db.kysely, 7)).toBe(0);
    expect(await historyOf(old.id)).toHaveLength(2);
  });

  it("leaves younger unpaid orders and paid, delivered or cancelled ones alone", async () => {
    await settleEverything();
    const young = await orderPlaced(6.9);
    const paid = await orderPlaced(30, "pending_delivery");
    const complete = await orderPlaced(30, "complete");
    const cancelledByAdmin = await orderPlaced(30, "cancelled");
    const historiesBefore = await Promise.all([young, paid, complete, cancelledByAdmin].map((o) => historyOf(o.id)));

    expect(await cancelUnpaidOrders(db.kysely, 7)).toBe(0);
    expect(await Promise.all([young, paid, complete, cancelledByAdmin].map((o) => statusOf(o.id)))).toEqual([
      "pending_payment",
      "pending_delivery",
      "complete",
      "cancelled",
    ]);
    expect(await Promise.all([young, paid, complete, cancelledByAdmin].map((o) => historyOf(o.id)))).toEqual(historiesBefore);
  });

  it("0 days means never; a negative number of days is refused", async () => {
    await settleEverything();
    const ancient = await orderPlaced(400);
    expect(await cancelUnpaidOrders(db.kysely, 0)).toBe(0);
    expect(await statusOf(ancient.id)).toBe("pending_payment");
    await expect(cancelUnpaidOrders(db.kysely, -1)).rejects.toThrow("invalid_days");
    expect(await statusOf(ancient.id)).toBe("pending_payment");
    // One day, in the singular.
    expect(await cancelUnpaidOrders(db.kysely, 1)).toBe(1);
    expect((await historyOf(ancient.id)).at(-1)?.reason).toBe("not paid within 1 day");
  });

  it("an admin may run it in their own transaction: the shop, not the admin, is recorded, and the admin's next change in that transaction is the admin's", async () => {
    await settleEverything();
    const old = await orderPlaced(10);
    const other = await orderPlaced(1);
    await runAs(db.kysely, admin.identity, async (trx) => {
      expect(await cancelUnpaidOrders(trx, 7)).toBe(1);
      // The reason does not outlive the function: a later change in the same transaction is the admin's own.
      await trx.updateTable("orders").set({ status: "pending_delivery" }).where("id", "=", other.id).execute();
    });
    expect((await historyOf(old.id)).at(-1)).toEqual({ from_status: "pending_payment", to_status: "cancelled", changed_by: null, reason: "not paid within 7 days" });
    expect((await historyOf(other.id)).at(-1)).toEqual({ from_status: "pending_payment", to_status: "pending_delivery", changed_by: admin.id, reason: null });
  });

  it("a customer or a visitor may not run it, and nothing changes", async () => {
    await settleEverything();
    const old = await orderPlaced(10);
    const asCustomer = await runAs(db.kysely, customer.identity, (trx) => cancelUnpaidOrders(trx, 7)).catch((error: unknown) => errorMessage(error));
    expect(asCustomer).toBe("admins_only");
    const asVisitor = await runAs(db.kysely, ANON, (trx) => cancelUnpaidOrders(trx, 7)).catch((error: unknown) => errorMessage(error));
    expect(asVisitor).toMatch(/permission denied/);
    expect(await statusOf(old.id)).toBe("pending_payment");
    expect(await historyOf(old.id)).toHaveLength(1);
  });

  it("runs from two connections at once cancel each order once", async () => {
    await settleEverything();
    const olds = await Promise.all([orderPlaced(9), orderPlaced(9), orderPlaced(9)]);
    const counts = await Promise.all([cancelUnpaidOrders(db.kysely, 7), runAs(db.kysely, admin.identity, (trx) => cancelUnpaidOrders(trx, 7))]);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(3);
    for (const order of olds) expect((await historyOf(order.id)).filter((e) => e.to_status === "cancelled")).toHaveLength(1);
  });

  it("the server's timer runs it at start and on every tick, and logs what it cancelled", async () => {
    await settleEverything();
    const old = await orderPlaced(8);
    const logged: string[] = [];
    const log = { info: (line: string) => logged.push(line), error: (...args: unknown[]) => logged.push(`error ${args.join(" ")}`) };
    const stop = startUnpaidOrderTimer(db, async () => 7, { everyMs: 50, log });
    try {
      await expect.poll(() => statusOf(old.id)).toBe("cancelled");
      const later = await orderPlaced(8);
      await expect.poll(() => statusOf(later.id)).toBe("cancelled");
    } finally {
      stop();
    }
    expect(logged.filter((line) => line.startsWith("[orders] cancelled 1 order(s) not paid within 7 day(s)"))).toHaveLength(2);
    expect(logged.filter((line) => line.startsWith("error"))).toEqual([]);
  });
});
