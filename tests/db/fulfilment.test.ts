import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { runAs, type Tx } from "@/server/db/as-caller";
import { errorMessage } from "../helpers/attempt";
import { createUser, freshDatabase, type TestDatabase, type TestUser } from "../helpers/database";
import { openReference, storeProof } from "../helpers/orders";

/**
 * Fulfilment in SQL (issue 27): the days offered for a cart at a fixed clock, and place_order's
 * checks of the choice, its fee line and total, and the day's capacity.
 */

let db: TestDatabase;
let food: string;
let stationery: string;
let pie: string;
let partyPack: string;
let pen: string;

/** An instant given as South African wall time (SAST is UTC+2 all year). */
const sast = (local: string) => `${local}+02:00`;

async function offered(user: TestUser, now: string): Promise<string[]> {
  return runAs(db.kysely, user.identity, async (trx) => {
    const { rows } = await sql<{ day: string }>`select d::text as day from public.fulfilment_days(${now}::timestamptz) as d`.execute(trx);
    return rows.map((row) => row.day);
  });
}

async function fill(user: TestUser, productId: string, quantity: number) {
  await runAs(db.kysely, user.identity, async (trx) => {
    for (let i = 0; i < quantity; i++) await sql`select public.add_to_cart(${productId}::uuid)`.execute(trx);
  });
}

const EVERY_DAY = [1, 2, 3, 4, 5, 6, 7];

/** The settings, and the opening hours: open on `openDays` (ISO weekdays; unset: every day), closed on the others. */
async function settle(values: { collection?: boolean; cutoff?: string; openDays?: number[] }) {
  await db.kysely
    .updateTable("fulfilment_settings")
    .set({
      collection_enabled: values.collection ?? true,
      collection_address: "12 Rivonia Road, Sandton",
      cutoff_time: values.cutoff ?? "14:00",
    })
    .where("id", "=", true)
    .execute();
  const open = values.openDays ?? EVERY_DAY;
  for (const weekday of EVERY_DAY) await db.kysely.updateTable("opening_hours").set({ open: open.includes(weekday) }).where("weekday", "=", weekday).execute();
}

interface Choice {
  method?: string;
  day?: string;
  areaId?: string;
  address?: string;
  keepAddress?: boolean;
}

/** Places `user`'s cart with their reserved reference and a fresh proof, as `user`. */
function place(user: TestUser, fulfilment: Choice | null) {
  return runAs(db.kysely, user.identity, async (trx: Tx) => {
    const reference = (await openReference(trx))!;
    const proofPath = await storeProof(trx, user);
    const { rows } = await sql<{ id: string; total: string; delivery_fee: string; fulfilment_method: string | null; day: string | null; delivery_address: string | null; delivery_area_id: string | null }>`
      select o.id, o.total, o.delivery_fee, o.fulfilment_method, o.fulfilment_day::text as day, o.delivery_address, o.delivery_area_id
      from public.place_order(${randomUUID()}::uuid, ${reference}, ${proofPath}, ${fulfilment === null ? null : JSON.stringify(fulfilment)}::jsonb) o`.execute(trx);
    return rows[0]!;
  });
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error, "the call was refused").not.toBeNull();
  return errorMessage(error);
}

/** Everything a refused checkout must leave as it was. */
async function fingerprint(user: TestUser) {
  const k = db.kysely;
  return {
    orders: await k.selectFrom("orders").select(["id"]).where("user_id", "=", user.id).execute(),
    lines: (await sql<{ n: number }>`select count(*)::int as n from public.order_items`.execute(k)).rows[0]!.n,
    cart: await k.selectFrom("cart_items").select(["product_id", "quantity"]).where("user_id", "=", user.id).orderBy("added_at").execute(),
    references: await k.selectFrom("checkout_references").select("reference").where("user_id", "=", user.id).execute(),
    capacity: (await sql<{ category_id: string; day: string; reserved: number }>`
      select category_id, day::text as day, reserved from public.daily_capacity order by category_id, day`.execute(k)).rows,
    profile: await k.selectFrom("profiles").select(["delivery_address", "delivery_area_id"]).where("id", "=", user.id).executeTakeFirst(),
    mails: (await sql<{ n: number }>`select count(*)::int as n from public.mail_outbox`.execute(k)).rows[0]!.n,
  };
}

/** The first day offered to `user` now (the real clock: place_order checks at its own now()). */
async function firstDayNow(user: TestUser): Promise<string> {
  return runAs(db.kysely, user.identity, async (trx) => {
    const { rows } = await sql<{ day: string }>`select d::text as day from public.fulfilment_days() as d limit 1`.execute(trx);
    return rows[0]!.day;
  });
}

beforeAll(async () => {
  db = await freshDatabase({ seed: false });
  const k = db.kysely;
  food = (await k.insertInto("categories").values({ name: "Food Products" }).returning("id").executeTakeFirstOrThrow()).id;
  stationery = (await k.insertInto("categories").values({ name: "Stationery" }).returning("id").executeTakeFirstOrThrow()).id;
  const product = async (name: string, price: string, category: string, lead = 0) =>
    (await k.insertInto("products").values({ name, price, category_id: category, image_path: null, lead_time_days: lead }).returning("id").executeTakeFirstOrThrow()).id;
  pie = await product("Chicken Pie", "35.00", food);
  partyPack = await product("Party Pack for 20", "450.00", food, 2);
  pen = await product("Pen", "10.00", stationery);
});

afterAll(async () => {
  await db?.close();
});

describe("the day offer (fixed clock, Africa/Johannesburg)", () => {
  let customer: TestUser;
  beforeEach(async () => {
    await settle({});
    await db.kysely.deleteFrom("closed_days").execute();
    await db.kysely.updateTable("categories").set({ daily_limit: null }).execute();
    await db.kysely.deleteFrom("daily_capacity").execute();
    customer = await createUser(db);
    await fill(customer, pie, 1);
  });

  it("offers tomorrow until the cut-off at 14:00 SAST, and the day after from 14:00", async () => {
    // Tuesday 1 December 2026.
    expect((await offered(customer, sast("2026-12-01 13:59")))[0]).toBe("2026-12-02");
    expect((await offered(customer, sast("2026-12-01 14:00")))[0]).toBe("2026-12-03");
    expect((await offered(customer, sast("2026-12-01 14:01")))[0]).toBe("2026-12-03");
  });

  it("counts the day in South African time, not UTC", async () => {
    // 23:30 UTC on 1 December is already 01:30 on the 2nd in Johannesburg: before the cut-off of the 2nd.
    expect((await offered(customer, "2026-12-01 23:30+00:00"))[0]).toBe("2026-12-03");
  });

  it("follows a changed cut-off at once", async () => {
    await settle({ cutoff: "12:00" });
    expect((await offered(customer, sast("2026-12-01 13:00")))[0]).toBe("2026-12-03");
  });

  it("skips a public holiday", async () => {
    await db.kysely.insertInto("closed_days").values({ day: "2026-12-16", reason: "Day of Reconciliation" }).execute();
    const at1359 = await offered(customer, sast("2026-12-15 13:59"));
    expect(at1359.slice(0, 2)).toEqual(["2026-12-17", "2026-12-18"]);
    expect(at1359).not.toContain("2026-12-16");
    expect((await offered(customer, sast("2026-12-15 14:01")))[0]).toBe("2026-12-17");
  });

  it("skips the weekdays the shop is closed", async () => {
    await settle({ openDays: [1, 2, 3, 4, 5] });
    // Friday 4 December after the cut-off: Sunday 6th would be next; the weekend is closed.
    const days = await offered(customer, sast("2026-12-04 15:00"));
    expect(days[0]).toBe("2026-12-07");
    expect(days.some((day) => [6, 0].includes(new Date(`${day}T12:00:00Z`).getUTCDay()))).toBe(false);
  });

  it("waits for the cart's longest lead time, counted from today", async () => {
    await fill(customer, partyPack, 1);
    expect((await offered(customer, sast("2026-12-01 10:00")))[0]).toBe("2026-12-03");
    expect((await offered(customer, sast("2026-12-01 14:30")))[0]).toBe("2026-12-04");
  });

  it("offers 14 days", async () => {
    const days = await offered(customer, sast("2026-12-01 10:00"));
    expect(days).toHaveLength(14);
    expect(days.at(-1)).toBe("2026-12-15");
  });

  it("leaves out a day on which a limited category has no room for the cart's quantity", async () => {
    await db.kysely.updateTable("categories").set({ daily_limit: 10 }).where("id", "=", food).execute();
    await db.kysely.insertInto("daily_capacity").values({ category_id: food, day: "2026-12-02", reserved: 9 }).execute();
    expect((await offered(customer, sast("2026-12-01 10:00")))[0]).toBe("2026-12-02"); // 9 + 1 fits
    await fill(customer, pie, 1);
    expect((await offered(customer, sast("2026-12-01 10:00")))[0]).toBe("2026-12-03"); // 9 + 2 does not
    // Another category's limit says nothing about food.
    await db.kysely.updateTable("categories").set({ daily_limit: 1 }).where("id", "=", stationery).execute();
    expect((await offered(customer, sast("2026-12-01 10:00")))[0]).toBe("2026-12-03");
  });

  it("offers nothing to a visitor", async () => {
    const { rows } = await runAs(db.kysely, { kind: "anon" }, (trx) =>
      sql`select 1 from public.fulfilment_days(${sast("2026-12-01 10:00")}::timestamptz)`.execute(trx),
    ).catch(() => ({ rows: [] }));
    expect(rows).toEqual([]);
  });
});

describe("place_order with a fulfilment choice", () => {
  let customer: TestUser;
  let sandton: string;

  beforeAll(async () => {
    sandton = (
      await db.kysely.insertInto("delivery_areas").values({ name: "Sandton", fee: "60.00", minimum_order: "50.00" }).returning("id").executeTakeFirstOrThrow()
    ).id;
  });

  beforeEach(async () => {
    await settle({});
    await db.kysely.deleteFrom("closed_days").execute();
    await db.kysely.updateTable("categories").set({ daily_limit: null }).execute();
    await db.kysely.deleteFrom("daily_capacity").execute();
    await db.kysely.updateTable("delivery_areas").set({ active: true }).where("id", "=", sandton).execute();
    customer = await createUser(db, { fullName: "Lerato Dlamini" });
    await fill(customer, pie, 2);
  });

  it("delivers: the fee is a line and part of the total, and the order holds method, day, address and area", async () => {
    const day = await firstDayNow(customer);
    const order = await place(customer, { method: "delivery", day, areaId: sandton, address: "4 Maude Street, Sandton" });
    expect(order).toMatchObject({ total: "130.00", delivery_fee: "60.00", fulfilment_method: "delivery", day, delivery_address: "4 Maude Street, Sandton", delivery_area_id: sandton });
    const lines = await db.kysely.selectFrom("order_items").select(["product_id", "product_name", "unit_price", "quantity"]).where("order_id", "=", order.id).orderBy("product_name").execute();
    expect(lines).toEqual([
      { product_id: pie, product_name: "Chicken Pie", unit_price: "35.00", quantity: 2 },
      { product_id: null, product_name: "Delivery to Sandton", unit_price: "60.00", quantity: 1 },
    ]);
    // The mails carry how and when.
    const mail = await db.kysely.selectFrom("mail_outbox").select("data").where("template", "=", "order_received").orderBy("created_at", "desc").executeTakeFirstOrThrow();
    expect(mail.data).toMatchObject({ total: 130, fulfilment: { method: "delivery", day, address: "4 Maude Street, Sandton", area: "Sandton", fee: 60 } });
    // Not kept on the profile unless asked.
    expect(await db.kysely.selectFrom("profiles").select("delivery_address").where("id", "=", customer.id).executeTakeFirst()).toEqual({ delivery_address: null });
  });

  it("keeps the address on the profile when asked", async () => {
    const day = await firstDayNow(customer);
    await place(customer, { method: "delivery", day, areaId: sandton, address: "4 Maude Street", keepAddress: true });
    expect(await db.kysely.selectFrom("profiles").select(["delivery_address", "delivery_area_id"]).where("id", "=", customer.id).executeTakeFirst()).toEqual({
      delivery_address: "4 Maude Street",
      delivery_area_id: sandton,
    });
  });

  it("collects: no fee, no address; the mail carries the opening hours as data", async () => {
    await settle({ openDays: [1, 2, 3, 4, 5, 6] });
    await db.kysely.updateTable("opening_hours").set({ opens: "08:30", closes: "13:00" }).where("weekday", "=", 6).execute();
    const day = await firstDayNow(customer);
    const order = await place(customer, { method: "collection", day });
    expect(order).toMatchObject({ total: "70.00", delivery_fee: "0.00", fulfilment_method: "collection", day, delivery_address: null });
    const mail = await db.kysely.selectFrom("mail_outbox").select("data").where("template", "=", "order_received").orderBy("created_at", "desc").executeTakeFirstOrThrow();
    const week = [1, 2, 3, 4, 5].map((weekday) => ({ weekday, opens: "09:00", closes: "16:00" }));
    expect(mail.data).toMatchObject({ fulfilment: { method: "collection", collectionAddress: "12 Rivonia Road, Sandton", openingHours: [...week, { weekday: 6, opens: "08:30", closes: "13:00" }] } });
  });

  it("asks nothing while fulfilment is not set up", async () => {
    await settle({ collection: false });
    await db.kysely.updateTable("delivery_areas").set({ active: false }).execute();
    const order = await place(customer, null);
    expect(order).toMatchObject({ total: "70.00", fulfilment_method: null, day: null });
  });

  describe("refuses, changing nothing", () => {
    const cases: [string, (day: string) => Choice | null | Promise<Choice | null>, string][] = [
      ["no choice once fulfilment is set up", () => null, "fulfilment_required"],
      ["a method that is neither", (day) => ({ method: "drone", day }), "fulfilment_required"],
      ["collection while it is off", async (day) => {
        await settle({ collection: false });
        return { method: "collection", day };
      }, "collection_unavailable"],
      ["an area that does not exist (an address outside every area)", (day) => ({ method: "delivery", day, areaId: randomUUID(), address: "1 Far Away Road" }), "area_unknown"],
      ["an area id that is not one", (day) => ({ method: "delivery", day, areaId: "Sandton", address: "1 Far Away Road" }), "area_unknown"],
      ["a removed area", async (day) => {
        await db.kysely.updateTable("delivery_areas").set({ active: false }).where("id", "=", sandton).execute();
        return { method: "delivery", day, areaId: sandton, address: "4 Maude Street" };
      }, "area_unknown"],
      ["no address", (day) => ({ method: "delivery", day, areaId: sandton, address: "  " }), "address_required"],
      ["a cart below the area's minimum", async (day) => {
        await db.kysely.updateTable("delivery_areas").set({ minimum_order: "100.00" }).where("id", "=", sandton).execute();
        return { method: "delivery", day, areaId: sandton, address: "4 Maude Street" };
      }, "below_minimum"],
      ["today (never offered)", () => ({ method: "collection", day: new Date().toISOString().slice(0, 10) }), "day_unavailable"],
      ["a day too far ahead", () => ({ method: "collection", day: "2099-01-01" }), "day_unavailable"],
      ["a day that is not a date", () => ({ method: "collection", day: "2026-13-45" }), "day_unavailable"],
      ["a day closed since it was offered", async (day) => {
        await db.kysely.insertInto("closed_days").values({ day, reason: "Staff training" }).execute();
        return { method: "collection", day };
      }, "day_unavailable"],
      ["a weekday the shop closed since it was offered", async (day) => {
        const weekday = ((new Date(`${day}T12:00:00Z`).getUTCDay() + 6) % 7) + 1;
        await settle({ openDays: EVERY_DAY.filter((d) => d !== weekday) });
        return { method: "collection", day };
      }, "day_unavailable"],
      ["a day the lead time has passed while the customer paid", async (day) => {
        // The party pack needs two days: the day offered for pies is too soon for it now.
        await fill(customer, partyPack, 1);
        return { method: "collection", day };
      }, "day_unavailable"],
      ["a day fully booked for a limited category", async (day) => {
        await db.kysely.updateTable("categories").set({ daily_limit: 5 }).where("id", "=", food).execute();
        await db.kysely.insertInto("daily_capacity").values({ category_id: food, day, reserved: 4 }).execute();
        return { method: "collection", day };
      }, "day_full"],
      ["a cart larger than the day's whole limit", async (day) => {
        await db.kysely.updateTable("categories").set({ daily_limit: 1 }).where("id", "=", food).execute();
        return { method: "collection", day };
      }, "day_full"],
    ];
    it.each(cases)("%s", async (_name, choose, expected) => {
      const choice = await choose(await firstDayNow(customer));
      const before = await fingerprint(customer);
      expect(await refusal(place(customer, choice))).toContain(expected);
      expect(await fingerprint(customer)).toEqual(before);
      await db.kysely.updateTable("delivery_areas").set({ minimum_order: "50.00" }).where("id", "=", sandton).execute();
    });
  });

  it("takes the day's capacity per limited category, gives it back on cancellation and takes it again when un-cancelled", async () => {
    await db.kysely.updateTable("categories").set({ daily_limit: 5 }).where("id", "=", food).execute();
    await fill(customer, pen, 3); // stationery has no limit: nothing counted
    const day = await firstDayNow(customer);
    const order = await place(customer, { method: "collection", day });
    const reserved = async () =>
      (await sql<{ category_id: string; reserved: number }>`select category_id, reserved from public.daily_capacity where day = ${day}::date`.execute(db.kysely)).rows;
    expect(await reserved()).toEqual([{ category_id: food, reserved: 2 }]);

    const admin = await createUser(db, { role: "admin" });
    const setStatus = (status: "cancelled" | "pending_delivery") =>
      runAs(db.kysely, admin.identity, (trx) => trx.updateTable("orders").set({ status }).where("id", "=", order.id).execute());
    await setStatus("cancelled");
    expect(await reserved()).toEqual([{ category_id: food, reserved: 0 }]);
    await setStatus("cancelled"); // no change, nothing given back twice
    expect(await reserved()).toEqual([{ category_id: food, reserved: 0 }]);
    await setStatus("pending_delivery");
    expect(await reserved()).toEqual([{ category_id: food, reserved: 2 }]);
  });

  it("20 concurrent place_order calls for the last 3 units of a day: 3 orders, 17 'day_full', the counter at the limit", async () => {
    await db.kysely.updateTable("categories").set({ daily_limit: 10 }).where("id", "=", food).execute();
    const customers = await Promise.all(Array.from({ length: 20 }, () => createUser(db)));
    for (const c of customers) {
      await fill(c, pie, 1);
      await runAs(db.kysely, c.identity, openReference); // reserved before, as checkout's page does
    }
    const day = await firstDayNow(customers[0]!);
    await db.kysely.insertInto("daily_capacity").values({ category_id: food, day, reserved: 7 }).execute();
    // On PostgreSQL these are 20 transactions on their own connections, racing for the same row.
    const results = await Promise.allSettled(customers.map((c) => place(c, { method: "collection", day })));
    const placed = results.flatMap((r) => (r.status === "fulfilled" ? [r.value.id] : []));
    expect(placed).toHaveLength(3);
    expect(results.flatMap((r) => (r.status === "rejected" ? [errorMessage(r.reason)] : [])).every((m) => m.includes("day_full"))).toBe(true);
    const counter = await db.kysely.selectFrom("daily_capacity").select("reserved").where("category_id", "=", food).where("day", "=", day).executeTakeFirstOrThrow();
    expect(counter.reserved).toBe(10);
    const refused = customers.filter((_, i) => results[i]!.status === "rejected");
    const carts = await db.kysely.selectFrom("cart_items").select("user_id").where("user_id", "in", refused.map((c) => c.id)).execute();
    expect(carts).toHaveLength(17);
    const references = await db.kysely.selectFrom("checkout_references").select("user_id").where("user_id", "in", refused.map((c) => c.id)).execute();
    expect(references).toHaveLength(17);
    expect(await db.kysely.selectFrom("orders").select("id").where("user_id", "in", refused.map((c) => c.id)).execute()).toEqual([]);
  });

  it("lets a customer read neither the capacity nor another's reservations", async () => {
    const { rows } = await runAs(db.kysely, customer.identity, (trx) => sql`select * from public.daily_capacity`.execute(trx));
    expect(rows).toEqual([]);
  });
});
