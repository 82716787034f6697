import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { messages, openingHoursMessages } from "@/lib/messages";
import { trpcRefusal } from "../helpers/attempt";
import { callerAs, type Caller } from "../helpers/browser";
import { createUser, freshDatabase, type TestDatabase, type TestUser } from "../helpers/database";
import { FakePayFast, SANDBOX_MERCHANT } from "../helpers/fake-payfast";
import { fileOf, makePng } from "../helpers/images";

/**
 * Delivery or collection at checkout (issue 27, docs/architecture.md#delivery-and-collection), through the procedures: what
 * checkout offers, the fee in the SQL total for both ways to pay, every refusal in the spec's
 * words and changing nothing, and capacity that never oversells under concurrent checkouts.
 */

const f = messages.fulfilment;

/** The week's opening hours: open 08:00-17:00 on `openDays` (ISO weekdays), closed on the others. */
function week(openDays: number[]) {
  return [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({ weekday, open: openDays.includes(weekday), opens: "08:00", closes: "17:00" }));
}
let db: TestDatabase;
let fake: FakePayFast;
let admin: Caller;
let pie: { id: string; price: number; categoryId: string };
let sandton: string;

function checkoutForm(reference: string, fulfilment: unknown) {
  const form = new FormData();
  form.set("proof", fileOf(makePng(), "proof.png"));
  form.set("reference", reference);
  form.set("idempotencyKey", randomUUID());
  if (fulfilment !== undefined) form.set("fulfilment", JSON.stringify(fulfilment));
  return form;
}

async function customerWith(quantity: number, options: { payfast?: boolean } = {}): Promise<{ user: TestUser; caller: Caller }> {
  const user = await createUser(db, { fullName: "Ayanda Khumalo" });
  const caller = await callerAs(db, user, options.payfast ? { payfast: { url: fake.url, itnSources: ["127.0.0.1/32"] } } : {});
  for (let i = 0; i < quantity; i++) await caller.cart.add({ productId: pie.id });
  return { user, caller };
}

/** What a refused checkout must leave as it was: the customer's orders, cart and reserved reference, and the day's counters. */
async function stateOf(user: TestUser) {
  const k = db.kysely;
  return {
    orders: await k.selectFrom("orders").select("id").where("user_id", "=", user.id).execute(),
    cart: await k.selectFrom("cart_items").select(["product_id", "quantity"]).where("user_id", "=", user.id).execute(),
    reference: await k.selectFrom("checkout_references").select("reference").where("user_id", "=", user.id).execute(),
    capacity: await k.selectFrom("daily_capacity").select(["category_id", "reserved"]).orderBy("category_id").execute(),
    profile: await k.selectFrom("profiles").select(["delivery_address", "delivery_area_id"]).where("id", "=", user.id).executeTakeFirst(),
  };
}

beforeAll(async () => {
  db = await freshDatabase();
  fake = await FakePayFast.start();
  const row = await db.kysely.selectFrom("products").select(["id", "price", "category_id"]).where("available", "=", true).orderBy("price").limit(1).executeTakeFirstOrThrow();
  pie = { id: row.id, price: Number(row.price), categoryId: row.category_id };
  admin = await callerAs(db, await createUser(db, { role: "admin" }));
});

afterAll(async () => {
  await fake?.close();
  await db?.close();
});

describe("before the owner sets fulfilment up", () => {
  it("checkout asks nothing and orders carry no day", async () => {
    const { caller } = await customerWith(1);
    expect(await caller.fulfilment.options()).toEqual({ configured: false, collection: null, areas: [], days: [], kept: null });
    const reference = (await caller.checkout.start()).reference!;
    const placed = await caller.checkout.placeOrder(checkoutForm(reference, undefined));
    const order = await db.kysely.selectFrom("orders").select(["fulfilment_method", "delivery_fee"]).where("id", "=", placed.orderId).executeTakeFirstOrThrow();
    expect(order).toEqual({ fulfilment_method: null, delivery_fee: "0.00" });
  });
});

describe("with delivery areas and collection", () => {
  beforeAll(async () => {
    await admin.fulfilment.updateSettings({ collectionEnabled: true, collectionAddress: "12 Rivonia Road, Sandton", cutoffTime: "14:00", openingHours: week([1, 2, 3, 4, 5, 6, 7]) });
    sandton = (await admin.fulfilment.saveArea({ name: "Sandton", fee: "60", minimumOrder: "" })).id;
  });

  beforeEach(async () => {
    await db.kysely.updateTable("categories").set({ daily_limit: null }).execute();
    await db.kysely.deleteFrom("daily_capacity").execute();
  });

  it("offers collection, the active areas with their fees, and the days the cart can have", async () => {
    const { caller } = await customerWith(1);
    const options = await caller.fulfilment.options();
    expect(options).toMatchObject({
      configured: true,
      collection: { address: "12 Rivonia Road, Sandton", hours: "Mon–Sun 08:00–17:00" },
      areas: [{ id: sandton, name: "Sandton", fee: "60.00", minimumOrder: null }],
      kept: null,
    });
    expect(options.days).toHaveLength(14);
  });

  it("delivers by bank transfer: the fee is a line and in the total; the address is kept when asked", async () => {
    const { user, caller } = await customerWith(2);
    const { days } = await caller.fulfilment.options();
    const reference = (await caller.checkout.start()).reference!;
    const placed = await caller.checkout.placeOrder(
      checkoutForm(reference, { method: "delivery", day: days[0], areaId: sandton, address: "4 Maude Street, Sandton", keepAddress: true }),
    );
    const order = await db.kysely.selectFrom("orders").select(["total", "delivery_fee", "fulfilment_method", "delivery_address"]).where("id", "=", placed.orderId).executeTakeFirstOrThrow();
    expect(order).toEqual({ total: (pie.price * 2 + 60).toFixed(2), delivery_fee: "60.00", fulfilment_method: "delivery", delivery_address: "4 Maude Street, Sandton" });
    // The customer's history shows it, with the fee as a line.
    const [mine] = (await caller.orders.mine()).filter((o) => o.id === placed.orderId);
    expect(mine).toMatchObject({ fulfilment: { method: "delivery", day: days[0], address: "4 Maude Street, Sandton", area: "Sandton", fee: 60 } });
    expect(mine!.items.map((item) => item.name)).toContain("Delivery to Sandton");
    // Next time checkout fills the address in.
    expect((await caller.fulfilment.options()).kept).toEqual({ address: "4 Maude Street, Sandton", areaId: sandton });
    expect((await db.kysely.selectFrom("profiles").select("delivery_address").where("id", "=", user.id).executeTakeFirstOrThrow()).delivery_address).toBe("4 Maude Street, Sandton");
  });

  it("delivers with Pay now: the same fee and total", async () => {
    await db.kysely
      .insertInto("payment_settings")
      .values({ payfast_merchant_id: SANDBOX_MERCHANT.merchantId, payfast_merchant_key: SANDBOX_MERCHANT.merchantKey, payfast_passphrase: SANDBOX_MERCHANT.passphrase, payfast_sandbox: true })
      .onConflict((c) => c.column("id").doNothing())
      .execute();
    const { caller } = await customerWith(1, { payfast: true });
    const { days } = await caller.fulfilment.options();
    const reference = (await caller.checkout.start()).reference!;
    const payment = await caller.payments.payNow({ reference, idempotencyKey: randomUUID(), fulfilment: { method: "delivery", day: days[1]!, areaId: sandton, address: "9 Fredman Drive" } });
    expect(Object.fromEntries(payment.fields).amount).toBe((pie.price + 60).toFixed(2));
    const order = await db.kysely.selectFrom("orders").select(["total", "payment_method", "fulfilment_method"]).where("id", "=", payment.orderId).executeTakeFirstOrThrow();
    expect(order).toEqual({ total: (pie.price + 60).toFixed(2), payment_method: "payfast", fulfilment_method: "delivery" });
    // Pay now with a day that is not offered: refused in the same words as bank transfer.
    const other = await customerWith(1, { payfast: true });
    const otherReference = (await other.caller.checkout.start()).reference!;
    const refused = await trpcRefusal(other.caller.payments.payNow({ reference: otherReference, idempotencyKey: randomUUID(), fulfilment: { method: "collection", day: "2020-01-01" } }));
    expect(refused.message).toBe(f.dayUnavailable);
    await db.kysely.deleteFrom("payment_settings").execute();
  });

  describe("refuses in the customer's words and changes nothing", () => {
    const cases: [string, (days: string[]) => unknown | Promise<unknown>, string][] = [
      ["no choice", () => undefined, f.required],
      ["an area we do not deliver to", (days) => ({ method: "delivery", day: days[0], areaId: randomUUID(), address: "1 Far Away Road" }), f.areaUnknown],
      [
        "a removed area",
        async (days) => {
          const id = (await admin.fulfilment.saveArea({ name: `Rosebank ${randomUUID().slice(0, 4)}`, fee: "40", minimumOrder: "" })).id;
          await admin.fulfilment.removeArea({ id });
          return { method: "delivery", day: days[0], areaId: id, address: "15 Cradock Avenue" };
        },
        f.areaUnknown,
      ],
      [
        "an order below the area's minimum",
        async (days) => {
          const id = (await admin.fulfilment.saveArea({ name: `Midrand ${randomUUID().slice(0, 4)}`, fee: "80", minimumOrder: "100000" })).id;
          return { method: "delivery", day: days[0], areaId: id, address: "1 New Road, Midrand" };
        },
        f.belowMinimum,
      ],
      ["a day not offered", () => ({ method: "collection", day: "2020-01-01" }), f.dayUnavailable],
      [
        "a day closed while the customer was paying",
        async (days) => {
          await admin.fulfilment.addClosedDay({ day: days[0]!, reason: "Stocktake" });
          return { method: "collection", day: days[0] };
        },
        f.dayUnavailable,
      ],
    ];
    it.each(cases)("%s", async (_name, choose, message) => {
      const { user, caller } = await customerWith(1);
      const { days } = await caller.fulfilment.options();
      const reference = (await caller.checkout.start()).reference!;
      const fulfilment = await choose(days);
      const before = await stateOf(user);
      expect((await trpcRefusal(caller.checkout.placeOrder(checkoutForm(reference, fulfilment)))).message).toBe(message);
      expect(await stateOf(user)).toEqual(before);
      for (const { day } of (await admin.fulfilment.settings()).closedDays) await admin.fulfilment.removeClosedDay({ day });
    });
  });

  it("20 concurrent checkouts for the last 3 units of a day: 3 orders, 17 told the day is full, nothing half-written; cancelling gives it back", async () => {
    await admin.fulfilment.setDailyLimit({ categoryId: pie.categoryId, limit: 10 });
    const customers = await Promise.all(Array.from({ length: 20 }, () => customerWith(1)));
    const day = (await customers[0]!.caller.fulfilment.options()).days[0]!;
    await db.kysely.insertInto("daily_capacity").values({ category_id: pie.categoryId, day, reserved: 7 }).execute();
    const forms = await Promise.all(customers.map(async ({ caller }) => checkoutForm((await caller.checkout.start()).reference!, { method: "collection", day })));
    const before = await Promise.all(customers.map(({ user }) => stateOf(user)));

    const results = await Promise.allSettled(customers.map(({ caller }, i) => caller.checkout.placeOrder(forms[i]!)));

    const placed = results.flatMap((r) => (r.status === "fulfilled" ? [r.value.orderId] : []));
    const refusals = results.flatMap((r) => (r.status === "rejected" ? [(r.reason as Error).message] : []));
    expect(placed).toHaveLength(3);
    expect(refusals).toEqual(Array.from({ length: 17 }, () => f.dayFull));
    const counter = () => db.kysely.selectFrom("daily_capacity").select("reserved").where("category_id", "=", pie.categoryId).where("day", "=", day).executeTakeFirstOrThrow();
    expect((await counter()).reserved).toBe(10);
    expect(await db.kysely.selectFrom("order_capacity").select("quantity").where("order_id", "in", placed).execute()).toHaveLength(3);
    for (const [i, result] of results.entries()) {
      if (result.status === "fulfilled") continue;
      const { user } = customers[i]!;
      // No order, no lines, the cart and the reserved reference as they were, no proof left behind.
      expect(await stateOf(user), `customer ${i}`).toEqual({ ...before[i]!, capacity: expect.anything() as unknown });
      expect(await db.kysely.selectFrom("storage.objects").select("name").where("name", "like", `${user.id}/%`).execute()).toEqual([]);
    }
    const lines = await db.kysely.selectFrom("order_items").select("order_id").where("order_id", "in", placed).execute();
    expect(lines).toHaveLength(3);

    // Cancelling one order gives its unit back; the day can be chosen again.
    await admin.adminOrders.updateStatus({ id: placed[0]!, status: "cancelled" });
    expect((await counter()).reserved).toBe(9);
    const late = customers[results.findIndex((r) => r.status === "rejected")]!;
    expect((await late.caller.fulfilment.options()).days[0]).toBe(day);
  });
});

describe("admins set it up", () => {
  it("refuses collection without an address, a bad cut-off, a negative fee and a second area of the same name", async () => {
    const settings = { collectionEnabled: true, collectionAddress: "", cutoffTime: "14:00", openingHours: week([1, 2, 3, 4, 5, 6, 7]) };
    expect((await trpcRefusal(admin.fulfilment.updateSettings(settings))).message).toBe(f.collectionAddressRequired);
    expect((await trpcRefusal(admin.fulfilment.updateSettings({ ...settings, collectionAddress: "x", cutoffTime: "25:00" }))).message).toBe(f.cutoffInvalid);
    expect((await trpcRefusal(admin.fulfilment.saveArea({ name: "Soweto", fee: "-5", minimumOrder: "" }))).message).toBe(f.feeInvalid);
    const name = `Alexandra ${randomUUID().slice(0, 4)}`;
    await admin.fulfilment.saveArea({ name, fee: "30", minimumOrder: "" });
    const duplicate = await trpcRefusal(admin.fulfilment.saveArea({ name: name.toUpperCase(), fee: "30", minimumOrder: "" }));
    expect([duplicate.code, duplicate.message]).toEqual(["CONFLICT", f.areaExists(name.toUpperCase())]);
  });

  it("words the opening hours for checkout and offers only the days the shop is open", async () => {
    const hours = [...week([1, 2, 3, 4, 5]).map((day) => ({ ...day, opens: "09:00", closes: "16:00" }))];
    hours[5] = { weekday: 6, open: true, opens: "09:00", closes: "13:00" };
    const saved = await admin.fulfilment.settings();
    await admin.fulfilment.updateSettings({ ...saved.settings, collectionEnabled: true, collectionAddress: "12 Rivonia Road", openingHours: hours });
    expect((await admin.fulfilment.settings()).settings.openingHours).toEqual(hours);
    const { caller } = await customerWith(1);
    const options = await caller.fulfilment.options();
    expect(options.collection?.hours).toBe("Mon–Fri 09:00–16:00, Sat 09:00–13:00");
    expect(options.days.length).toBeGreaterThan(0);
    expect(options.days.filter((day) => new Date(`${day}T12:00:00Z`).getUTCDay() === 0)).toEqual([]);

    const refused = async (openingHours: typeof hours) => (await trpcRefusal(admin.fulfilment.updateSettings({ ...saved.settings, openingHours }))).message;
    expect(await refused(week([]))).toBe(openingHoursMessages.noOpenDay);
    expect(await refused(hours.map((day) => (day.weekday === 6 ? { ...day, closes: "08:00" } : day)))).toBe(openingHoursMessages.closesBeforeOpens("Saturday"));
    await admin.fulfilment.updateSettings(saved.settings);
  });

  it("sets a product's lead time and a category's daily limit from the product dashboard", async () => {
    expect((await admin.fulfilment.setLeadTime({ productId: pie.id, days: 2 })).message).toMatch(/ready after 2 days/);
    expect((await trpcRefusal(admin.fulfilment.setLeadTime({ productId: pie.id, days: 61 }))).message).toBe(f.leadTimeInvalid);
    await admin.fulfilment.setDailyLimit({ categoryId: pie.categoryId, limit: 12 });
    const { products, categories } = await admin.fulfilment.leadTimes();
    expect(products.find((p) => p.id === pie.id)?.leadTimeDays).toBe(2);
    expect(categories.find((c) => c.id === pie.categoryId)?.dailyLimit).toBe(12);
    await admin.fulfilment.setLeadTime({ productId: pie.id, days: 0 });
  });

  it("lists a day's orders on its run sheet, without cancelled ones", async () => {
    const rows = await db.kysely.selectFrom("orders").select(["fulfilment_day", "id", "status"]).where("fulfilment_day", "is not", null).execute();
    const day = (await db.kysely
      .selectFrom("orders")
      .select((eb) => eb.cast<string>("fulfilment_day", "text").as("day"))
      .where("fulfilment_method", "=", "collection")
      .where("status", "<>", "cancelled")
      .limit(1)
      .executeTakeFirstOrThrow()).day;
    const sheet = await admin.fulfilment.runSheet({ day });
    expect(sheet.orders.length).toBeGreaterThan(0);
    expect(sheet.orders.every((order) => order.status !== "cancelled")).toBe(true);
    expect(rows.length).toBeGreaterThanOrEqual(sheet.orders.length);
  });
});
