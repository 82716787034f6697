/**
 * Accepting a quote asks what checkout asks (issue 39, docs/quotes.md "Acceptance"): delivery or
 * collection where the quote has goods, with checkout's rules, fee and days, and a time for each
 * line of a bookable service, booked under place_order's lock. Every refusal changes nothing and
 * the quote stays open; however many accepts race, one order and one booking.
 */
import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatDateTime, shopDay } from "@/lib/days";
import { messages, quoteMessages as q } from "@/lib/messages";
import { trpcRefusal } from "../helpers/attempt";
import { callerAs, type Caller } from "../helpers/browser";
import { createUser, freshDatabase, type TestDatabase } from "../helpers/database";

const f = messages.fulfilment;

let db: TestDatabase;
let asAdmin: Caller;
let asBuyer: Caller;
let categoryId: string;
let shirt: string;
let sandton: string;

/** The week: open 08:00-17:00 every day (so a day is always offered). */
const everyDay = [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({ weekday, open: true, opens: "08:00", closes: "17:00" }));

beforeAll(async () => {
  db = await freshDatabase();
  asAdmin = await callerAs(db, await createUser(db, { role: "admin" }));
  asBuyer = await callerAs(db, await createUser(db, { fullName: "Lerato Dlamini" }));
  categoryId = (await db.kysely.selectFrom("categories").select("id").limit(1).executeTakeFirstOrThrow()).id;
  const product = await db.kysely.insertInto("products").values({ name: "Branded golf shirt", price: "180.00", category_id: categoryId, image_path: null }).returning("id").executeTakeFirstOrThrow();
  shirt = (await db.kysely.selectFrom("product_variants").select("id").where("product_id", "=", product.id).executeTakeFirstOrThrow()).id;
  await asAdmin.fulfilment.updateSettings({ collectionEnabled: true, collectionAddress: "12 Rivonia Road, Sandton", cutoffTime: "14:00", openingHours: everyDay });
  sandton = (await asAdmin.fulfilment.saveArea({ name: "Sandton", fee: "60", minimumOrder: "" })).id;
});

afterAll(async () => {
  await db?.close();
});

/** A two-hour service bookable every day 08:00-18:00 without notice, `capacity` at once, with a deposit. */
async function newService(name: string, capacity = 1, deposit: { deposit: "none" | "percent" | "full"; percent: number | null } = { deposit: "full", percent: null }) {
  const id = (await db.kysely.insertInto("products").values({ name, price: "900.00", category_id: categoryId, image_path: null }).returning("id").executeTakeFirstOrThrow()).id;
  await db.kysely
    .insertInto("bookable_services")
    .values({ product_id: id, duration_minutes: 120, capacity, notice_hours: 0, deposit: deposit.deposit, deposit_percent: deposit.percent })
    .execute();
  for (let weekday = 1; weekday <= 7; weekday++) {
    await db.kysely.insertInto("bookable_service_hours").values({ product_id: id, weekday, opens: "08:00", closes: "18:00" }).execute();
  }
  const variant = (await db.kysely.selectFrom("product_variants").select("id").where("product_id", "=", id).executeTakeFirstOrThrow()).id;
  return { id, variant };
}

type Line = { kind: "catalogue"; variantId: string; quantity: number; unitPrice: string } | { kind: "custom"; description: string; quantity: number; unitPrice: string };

/** A quote of `lines` sent to `customer` (20 shirts at R150 by default: R3,000). */
async function sentQuote(customer: Caller = asBuyer, lines: Line[] = [{ kind: "catalogue", variantId: shirt, quantity: 20, unitPrice: "150" }]) {
  const { requestId } = await customer.quotes.request({ description: "What we need" });
  const { quoteId } = await asAdmin.adminQuotes.saveDraft({ requestId, validUntil: shopDay(30), terms: "", note: "", lines });
  await asAdmin.adminQuotes.send({ quoteId });
  return quoteId;
}

/** Everything a refused acceptance must leave as it was. */
async function fingerprint() {
  const k = db.kysely;
  return JSON.stringify({
    quotes: await k.selectFrom("quotes").select(["id", "status", "updated_at"]).orderBy("id").execute(),
    orders: await k.selectFrom("orders").select(["id", "status", "total"]).orderBy("id").execute(),
    items: await k.selectFrom("order_items").select("id").orderBy("id").execute(),
    bookings: await k.selectFrom("bookings").select(["id", "status"]).orderBy("id").execute(),
    capacity: await k.selectFrom("daily_capacity").selectAll().orderBy("category_id").execute(),
    stock: await k.selectFrom("product_variants").select(["id", "stock"]).orderBy("id").execute(),
    profiles: await k.selectFrom("profiles").select(["id", "delivery_address", "delivery_area_id"]).orderBy("id").execute(),
  });
}

async function stateOf(quoteId: string) {
  return (await db.kysely.selectFrom("quotes").select("status").where("id", "=", quoteId).executeTakeFirstOrThrow()).status;
}

describe("delivery or collection", () => {
  it("asks what checkout asks for the quote's lines; delivery puts the method, day, address and the area's fee on the order", async () => {
    const quoteId = await sentQuote();
    const options = await asBuyer.quotes.acceptOptions({ quoteId });
    expect(options.fulfilment).toMatchObject({
      configured: true,
      collection: { address: "12 Rivonia Road, Sandton" },
      areas: [{ id: sandton, name: "Sandton", fee: "60.00" }],
    });
    expect(options.fulfilment.days.length).toBe(14);
    expect(options.fulfilment.days[0]! > shopDay()).toBe(true);
    expect(options).toMatchObject({ deliveryQuoted: false, bookings: [] });

    const day = options.fulfilment.days[1]!;
    const { orderId } = await asBuyer.quotes.accept({ quoteId, fulfilment: { method: "delivery", areaId: sandton, address: "4 Maude Street, Sandton", day, keepAddress: true } });
    const order = await db.kysely.selectFrom("orders").selectAll().where("id", "=", orderId).executeTakeFirstOrThrow();
    expect(order).toMatchObject({
      fulfilment_method: "delivery",
      delivery_address: "4 Maude Street, Sandton",
      delivery_area_id: sandton,
      delivery_area_name: "Sandton",
      delivery_fee: "60.00",
      total: "3060.00",
      status: "pending_payment",
      deposit: null,
    });
    const { rows } = await sql<{ day: string }>`select fulfilment_day::text as day from public.orders where id = ${orderId}::uuid`.execute(db.kysely);
    expect(rows[0]?.day).toBe(day);
    const lines = await db.kysely.selectFrom("order_items").select(["product_name", "unit_price", "is_delivery_fee"]).where("order_id", "=", orderId).orderBy("is_delivery_fee").execute();
    expect(lines).toEqual([
      { product_name: "Branded golf shirt", unit_price: "150.00", is_delivery_fee: false },
      { product_name: "Delivery to Sandton", unit_price: "60.00", is_delivery_fee: true },
    ]);
    // "Keep this address for next time", as at checkout.
    expect((await asBuyer.fulfilment.options()).kept).toEqual({ address: "4 Maude Street, Sandton", areaId: sandton });
  });

  it("collection adds no fee", async () => {
    const quoteId = await sentQuote();
    const [day] = (await asBuyer.quotes.acceptOptions({ quoteId })).fulfilment.days;
    const { orderId } = await asBuyer.quotes.accept({ quoteId, fulfilment: { method: "collection", day: day! } });
    expect(await db.kysely.selectFrom("orders").select(["fulfilment_method", "delivery_fee", "total"]).where("id", "=", orderId).executeTakeFirstOrThrow()).toEqual({
      fulfilment_method: "collection",
      delivery_fee: "0.00",
      total: "3000.00",
    });
  });

  it("refuses a missing choice, an area that does not exist or is another shop's idea, no address, a day not offered, in checkout's words; nothing changes and the quote stays open", async () => {
    const quoteId = await sentQuote();
    const [day] = (await asBuyer.quotes.acceptOptions({ quoteId })).fulfilment.days;
    const removed = (await asAdmin.fulfilment.saveArea({ name: "Old area", fee: "10", minimumOrder: "" })).id;
    await asAdmin.fulfilment.removeArea({ id: removed });
    const stranger = await callerAs(db, await createUser(db));
    const before = await fingerprint();
    const cases: [string, Parameters<Caller["quotes"]["accept"]>[0]["fulfilment"], string][] = [
      ["no choice", null, f.required],
      ["an area that does not exist", { method: "delivery", areaId: randomUUID(), address: "4 Maude Street", day: day!, keepAddress: false }, f.areaUnknown],
      ["a removed area", { method: "delivery", areaId: removed, address: "4 Maude Street", day: day!, keepAddress: false }, f.areaUnknown],
      ["a day not offered", { method: "collection", day: "2020-01-01" }, f.dayUnavailable],
    ];
    for (const [label, fulfilment, message] of cases) {
      const refused = await trpcRefusal(asBuyer.quotes.accept({ quoteId, fulfilment }));
      expect(refused.message, label).toBe(message);
    }
    // The schema's own checks, before SQL: an id that is no id, an address too short.
    expect((await trpcRefusal(asBuyer.quotes.accept({ quoteId, fulfilment: { method: "delivery", areaId: "sandton", address: "4 Maude Street", day: day!, keepAddress: false } }))).code).toBe("BAD_REQUEST");
    expect((await trpcRefusal(asBuyer.quotes.accept({ quoteId, fulfilment: { method: "delivery", areaId: sandton, address: "4", day: day!, keepAddress: false } }))).message).toBe(f.addressRequired);
    expect(await fingerprint()).toBe(before);
    expect(await stateOf(quoteId)).toBe("sent");
    // Another customer can neither read what it asks nor accept it.
    expect((await trpcRefusal(stranger.quotes.acceptOptions({ quoteId }))).code).toBe("NOT_FOUND");
    expect((await trpcRefusal(stranger.quotes.accept({ quoteId, fulfilment: { method: "collection", day: day! } }))).code).toBe("NOT_FOUND");
    expect(await fingerprint()).toBe(before);
  });

  it("takes the day's capacity for the quote's quantities, as checkout does; a day without room is not offered, and refused", async () => {
    await db.kysely.updateTable("categories").set({ daily_limit: 30 }).where("id", "=", categoryId).execute();
    try {
      const first = await sentQuote();
      const [day] = (await asBuyer.quotes.acceptOptions({ quoteId: first })).fulfilment.days;
      const { orderId } = await asBuyer.quotes.accept({ quoteId: first, fulfilment: { method: "collection", day: day! } });
      expect(await db.kysely.selectFrom("order_capacity").select(["category_id", "quantity"]).where("order_id", "=", orderId).execute()).toEqual([{ category_id: categoryId, quantity: 20 }]);

      // 20 more do not fit on that day (20 of 30 taken): not offered, and refused if asked.
      const second = await sentQuote();
      expect((await asBuyer.quotes.acceptOptions({ quoteId: second })).fulfilment.days).not.toContain(day);
      const before = await fingerprint();
      expect((await trpcRefusal(asBuyer.quotes.accept({ quoteId: second, fulfilment: { method: "collection", day: day! } }))).message).toBe(f.dayFull);
      expect(await fingerprint()).toBe(before);
      expect(await stateOf(second)).toBe("sent");
    } finally {
      await db.kysely.updateTable("categories").set({ daily_limit: null }).where("id", "=", categoryId).execute();
    }
  });

  it("a quote of services only asks nothing; a quote that prices delivery itself adds no area fee", async () => {
    const services = await sentQuote(asBuyer, [{ kind: "custom", description: "Recruitment search", quantity: 1, unitPrice: "25000" }]);
    expect((await asBuyer.quotes.acceptOptions({ quoteId: services })).fulfilment).toEqual({ configured: false, collection: null, areas: [], days: [], kept: null });
    const { orderId } = await asBuyer.quotes.accept({ quoteId: services });
    expect(await db.kysely.selectFrom("orders").select(["fulfilment_method", "fulfilment_day", "delivery_fee", "total"]).where("id", "=", orderId).executeTakeFirstOrThrow()).toEqual({
      fulfilment_method: null,
      fulfilment_day: null,
      delivery_fee: "0.00",
      total: "25000.00",
    });

    const priced = await sentQuote(asBuyer, [
      { kind: "catalogue", variantId: shirt, quantity: 20, unitPrice: "150" },
      { kind: "custom", description: "Delivery to site, Midrand", quantity: 1, unitPrice: "350" },
    ]);
    const options = await asBuyer.quotes.acceptOptions({ quoteId: priced });
    expect(options.deliveryQuoted).toBe(true);
    const accepted = await asBuyer.quotes.accept({ quoteId: priced, fulfilment: { method: "delivery", areaId: sandton, address: "1 Site Road, Midrand", day: options.fulfilment.days[0]!, keepAddress: false } });
    expect(await db.kysely.selectFrom("orders").select(["fulfilment_method", "delivery_fee", "total"]).where("id", "=", accepted.orderId).executeTakeFirstOrThrow()).toEqual({
      fulfilment_method: "delivery",
      delivery_fee: "0.00",
      total: "3350.00",
    });
  });
});

describe("a bookable service", () => {
  it("asks a time per booked line; books it with the order, its deposit due now and the balance later", async () => {
    const service = await newService("Office deep clean", 1, { deposit: "percent", percent: 30 });
    const quoteId = await sentQuote(asBuyer, [{ kind: "catalogue", variantId: service.variant, quantity: 1, unitPrice: "800" }]);
    const options = await asBuyer.quotes.acceptOptions({ quoteId });
    // Only a service: no delivery or collection asked.
    expect(options.fulfilment.configured).toBe(false);
    expect(options.bookings).toEqual([{ lineId: expect.any(String), productId: service.id, name: "Office deep clean" }]);
    // 30 % of R800 now, the rest later: shown before accepting, as checkout shows it.
    expect(options.deposit).toEqual({ dueNow: 240, later: 560 });
    const lineId = options.bookings[0]!.lineId;

    const before = await fingerprint();
    expect((await trpcRefusal(asBuyer.quotes.accept({ quoteId }))).message).toBe(q.slotRequired("Office deep clean"));
    expect((await trpcRefusal(asBuyer.quotes.accept({ quoteId, slots: [{ lineId: randomUUID(), startsAt: new Date().toISOString() }] }))).message).toBe(q.slotsInvalid);
    expect(await fingerprint()).toBe(before);

    const [slot] = await asBuyer.bookings.freeSlots({ productId: service.id, from: shopDay(2), days: 1 });
    const { orderId, reference } = await asBuyer.quotes.accept({ quoteId, slots: [{ lineId, startsAt: slot!.startsAt.toISOString() }] });
    const order = await db.kysely.selectFrom("orders").selectAll().where("id", "=", orderId).executeTakeFirstOrThrow();
    expect(order).toMatchObject({ total: "800.00", deposit: "240.00", balance_reference: `${reference}-B`, status: "pending_payment", fulfilment_method: null });
    const line = await db.kysely.selectFrom("order_items").select(["slot_starts_at", "deposit"]).where("order_id", "=", orderId).executeTakeFirstOrThrow();
    expect(line).toEqual({ slot_starts_at: slot!.startsAt, deposit: "240.00" });
    const bookings = await db.kysely.selectFrom("bookings").select(["starts_at", "status"]).where("order_id", "=", orderId).execute();
    expect(bookings).toEqual([{ starts_at: slot!.startsAt, status: "booked" }]);
    // The time is no longer offered to anyone.
    const after = await asBuyer.bookings.freeSlots({ productId: service.id, from: shopDay(2), days: 1 });
    expect(after.some((free) => free.startsAt.getTime() === slot!.startsAt.getTime())).toBe(false);
  });

  it("a service without a deposit and nothing else due: placed as Pending Delivery, nothing due now", async () => {
    const service = await newService("Window wash", 1, { deposit: "none", percent: null });
    const quoteId = await sentQuote(asBuyer, [{ kind: "catalogue", variantId: service.variant, quantity: 1, unitPrice: "450" }]);
    const options = await asBuyer.quotes.acceptOptions({ quoteId });
    expect(options.deposit).toEqual({ dueNow: 0, later: 450 });
    const [slot] = await asBuyer.bookings.freeSlots({ productId: service.id, from: shopDay(2), days: 1 });
    const accepted = await asBuyer.quotes.accept({ quoteId, slots: [{ lineId: options.bookings[0]!.lineId, startsAt: slot!.startsAt.toISOString() }] });
    expect(accepted.message).toBe(q.acceptedNothingDue(accepted.reference));
    expect(await db.kysely.selectFrom("orders").select(["status", "deposit", "total"]).where("id", "=", accepted.orderId).executeTakeFirstOrThrow()).toEqual({
      status: "pending_delivery",
      deposit: "0.00",
      total: "450.00",
    });
  });

  it("refuses a time that filled meanwhile, naming the line, with nothing changed; another time then works", async () => {
    const service = await newService("Consultation", 1);
    const quoteId = await sentQuote(asBuyer, [{ kind: "catalogue", variantId: service.variant, quantity: 1, unitPrice: "500" }]);
    const { bookings } = await asBuyer.quotes.acceptOptions({ quoteId });
    const free = await asBuyer.bookings.freeSlots({ productId: service.id, from: shopDay(3), days: 1 });
    const first = free[0];
    // A time after the first one's two hours.
    const second = free.find((slot) => slot.startsAt.getTime() >= first!.startsAt.getTime() + 2 * 3_600_000);
    // Someone else takes the first time with a quote of their own.
    const other = await callerAs(db, await createUser(db));
    const theirs = await sentQuote(other, [{ kind: "catalogue", variantId: service.variant, quantity: 1, unitPrice: "500" }]);
    const theirLine = (await other.quotes.acceptOptions({ quoteId: theirs })).bookings[0]!.lineId;
    await other.quotes.accept({ quoteId: theirs, slots: [{ lineId: theirLine, startsAt: first!.startsAt.toISOString() }] });

    const before = await fingerprint();
    const refused = await trpcRefusal(asBuyer.quotes.accept({ quoteId, slots: [{ lineId: bookings[0]!.lineId, startsAt: first!.startsAt.toISOString() }] }));
    expect(refused.code).toBe("CONFLICT");
    expect(refused.message).toBe(q.slotTaken("Consultation", formatDateTime(first!.startsAt)));
    expect(await fingerprint()).toBe(before);
    expect(await stateOf(quoteId)).toBe("sent");

    await asBuyer.quotes.accept({ quoteId, slots: [{ lineId: bookings[0]!.lineId, startsAt: second!.startsAt.toISOString() }] });
    expect(await stateOf(quoteId)).toBe("accepted");
  });

  it("20 accepts of one quote at once for the last place: one order, one booking", async () => {
    const service = await newService("Site survey", 1);
    const quoteId = await sentQuote(asBuyer, [{ kind: "catalogue", variantId: service.variant, quantity: 1, unitPrice: "1200" }]);
    const { bookings } = await asBuyer.quotes.acceptOptions({ quoteId });
    const [slot] = await asBuyer.bookings.freeSlots({ productId: service.id, from: shopDay(4), days: 1 });
    const input = { quoteId, slots: [{ lineId: bookings[0]!.lineId, startsAt: slot!.startsAt.toISOString() }] };
    const results = await Promise.allSettled(Array.from({ length: 20 }, () => asBuyer.quotes.accept(input)));
    const orders = new Set(results.map((result) => (result.status === "fulfilled" ? result.value.orderId : "refused")));
    expect([...orders]).toHaveLength(1);
    expect(orders.has("refused")).toBe(false);
    expect(await db.kysely.selectFrom("bookings").select("id").where("product_id", "=", service.id).execute()).toHaveLength(1);
  });

  it("5 customers' quotes racing for the last place: one order and one booking, the others refused naming the line with their quotes open", async () => {
    const service = await newService("Boardroom clean", 1);
    const customers = await Promise.all(Array.from({ length: 5 }, async () => callerAs(db, await createUser(db))));
    const quotes = [];
    for (const customer of customers) {
      const quoteId = await sentQuote(customer, [{ kind: "catalogue", variantId: service.variant, quantity: 1, unitPrice: "700" }]);
      quotes.push({ customer, quoteId, lineId: (await customer.quotes.acceptOptions({ quoteId })).bookings[0]!.lineId });
    }
    const [slot] = await asBuyer.bookings.freeSlots({ productId: service.id, from: shopDay(5), days: 1 });
    const startsAt = slot!.startsAt.toISOString();
    const results = await Promise.allSettled(quotes.map(({ customer, quoteId, lineId }) => customer.quotes.accept({ quoteId, slots: [{ lineId, startsAt }] })));
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
    for (const result of results) {
      if (result.status === "rejected") expect((result.reason as Error).message).toBe(q.slotTaken("Boardroom clean", formatDateTime(slot!.startsAt)));
    }
    expect(await db.kysely.selectFrom("bookings").select("id").where("product_id", "=", service.id).execute()).toHaveLength(1);
    const states = await Promise.all(quotes.map(({ quoteId }) => stateOf(quoteId)));
    expect(states.filter((state) => state === "accepted")).toHaveLength(1);
    expect(states.filter((state) => state === "sent")).toHaveLength(4);
  });
});
