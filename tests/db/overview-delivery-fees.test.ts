import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAs } from "@/server/db/as-caller";
import { readSalesRange, readSalesSummary } from "@/server/overview/overview-queries";
import { createUser, freshDatabase, type TestDatabase, type TestUser } from "../helpers/database";
import { placeTestOrder } from "../helpers/orders";

/**
 * The sales overview counts delivery fees apart from goods (issue 27 item 5;
 * 20261203000000_overview_delivery_fees.sql): a paid order's fee line (order_items.is_delivery_fee)
 * is in its revenue and in the period's deliveryFees, and in no product nor business line.
 */
let db: TestDatabase;
let admin: TestUser;

beforeAll(async () => {
  db = await freshDatabase({ seed: false });
  const k = db.kysely;
  admin = await createUser(db, { role: "admin" });
  const customer = await createUser(db);
  const food = (await k.insertInto("categories").values({ name: "Food Products" }).returning("id").executeTakeFirstOrThrow()).id;
  const pack = (await k.insertInto("products").values({ name: "Party Pack for 20", price: "1250.00", category_id: food, image_path: null }).returning("id").executeTakeFirstOrThrow()).id;
  // Two orders on 25 November (SAST): one delivered (R1,250 + R60 to Sandton), one collected.
  for (const fee of ["60.00", null]) {
    const order = await placeTestOrder(db, customer, [pack]);
    if (fee) {
      await k.insertInto("order_items").values({ order_id: order.id, product_id: null, product_name: "Delivery to Sandton", unit_price: fee, quantity: 1, image_path: null, is_delivery_fee: true }).execute();
      await k.updateTable("orders").set({ total: "1310.00" }).where("id", "=", order.id).execute();
    }
    await k.updateTable("orders").set({ created_at: new Date("2026-11-25T09:00:00+02:00") }).where("id", "=", order.id).execute();
    await k.updateTable("orders").set({ status: "pending_delivery" }).where("id", "=", order.id).execute();
  }
});

afterAll(async () => {
  await db?.close();
});

describe("delivery fees in the sales overview", () => {
  it("a range: revenue with the fee, the fee apart, and products and business lines without it", async () => {
    const range = await runAs(db.kysely, admin.identity, (trx) => readSalesRange(trx, { from: "2026-11-25", to: "2026-11-25" }));
    expect(range).toMatchObject({ revenue: "2560.00", orders: 2, deliveryFees: "60.00" });
    expect(range.topProducts).toEqual([{ name: "Party Pack for 20", revenue: "2500.00", units: 2 }]);
    expect(range.categories).toEqual([{ name: "Food Products", revenue: "2500.00" }]);
  });

  it("the summary's periods carry their delivery fees", async () => {
    const summary = await runAs(db.kysely, admin.identity, (trx) => readSalesSummary(trx, new Date("2026-11-25T18:00:00+02:00")));
    expect(summary.periods.today).toEqual({ revenue: "2560.00", orders: 2, deliveryFees: "60.00" });
    expect(summary.periods.yesterday).toEqual({ revenue: "0", orders: 0, deliveryFees: "0" });
  });

  it("a cancelled delivery takes its fee out again", async () => {
    const delivered = await db.kysely.selectFrom("orders").select("id").where("total", "=", "1310.00").executeTakeFirstOrThrow();
    await db.kysely.updateTable("orders").set({ status: "cancelled" }).where("id", "=", delivered.id).execute();
    const range = await runAs(db.kysely, admin.identity, (trx) => readSalesRange(trx, { from: "2026-11-25", to: "2026-11-25" }));
    expect(range).toMatchObject({ revenue: "1250.00", orders: 1, deliveryFees: "0" });
  });
});
