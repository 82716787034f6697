import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatTime, shopDay } from "@/lib/days";
import { messages } from "@/lib/messages";
import { trpcRefusal } from "../helpers/attempt";
import { callerAs, type Caller } from "../helpers/browser";
import { createUser, freshDatabase, type TestDatabase } from "../helpers/database";
import { fileOf, makePng } from "../helpers/images";

/**
 * The owner's day (issue 38; docs/bookings.md): the admins' calendar of a day or a week with the
 * capacity used, the same bookings on the run sheet, and blocked times that take their slots out
 * of the free times (and so out of holds) and name the bookings they clash with.
 */
const c = messages.bookings.calendar;
let db: TestDatabase;
let admin: Caller;
let categoryId: string;

beforeAll(async () => {
  db = await freshDatabase();
  admin = await callerAs(db, await createUser(db, { role: "admin" }));
  categoryId = (await db.kysely.selectFrom("categories").select("id").limit(1).executeTakeFirstOrThrow()).id;
});

afterAll(async () => {
  await db?.close();
});

/** A one-hour service every day 08:00-18:00, two teams at once, no notice. */
async function newService(name: string) {
  const id = (await db.kysely.insertInto("products").values({ name, price: "500.00", category_id: categoryId, image_path: null }).returning("id").executeTakeFirstOrThrow()).id;
  await db.kysely.insertInto("bookable_services").values({ product_id: id, duration_minutes: 60, notice_hours: 0, capacity: 2 }).execute();
  for (let weekday = 1; weekday <= 7; weekday++) {
    await db.kysely.insertInto("bookable_service_hours").values({ product_id: id, weekday, opens: "08:00", closes: "18:00" }).execute();
  }
  return id;
}

async function book(productId: string, startsAt: Date, name: string) {
  const user = await createUser(db, { fullName: name });
  const caller = await callerAs(db, user);
  await caller.cart.addBooking({ productId, startsAt: startsAt.toISOString() });
  const form = new FormData();
  form.set("proof", fileOf(makePng(), "proof.png"));
  form.set("reference", (await caller.checkout.start()).reference!);
  form.set("idempotencyKey", randomUUID());
  const placed = await caller.checkout.placeOrder(form);
  return { user, reference: placed.reference };
}

describe("the bookings calendar", () => {
  it("lists a day's bookings by time with the capacity used, for one service or all, and a week", async () => {
    const service = await newService("Office clean calendar");
    const other = await newService("Consultation calendar");
    const day = shopDay(3);
    const [ten] = (await admin.bookings.freeSlots({ productId: service, from: day, days: 1 })).filter((slot) => formatTime(slot.startsAt) === "10:00");
    const first = await book(service, ten!.startsAt, "Ayanda Zulu");
    await book(service, ten!.startsAt, "Bongani Khumalo");
    await db.kysely
      .insertInto("messaging_consents")
      .values({ user_id: first.user.id, kind: "whatsapp_updates", phone: "+27821112222", source: "profile", words: "Send my order updates on WhatsApp." })
      .execute();
    const [consultation] = await admin.bookings.freeSlots({ productId: other, from: day, days: 1 });
    await book(other, consultation!.startsAt, "Carol Dlamini");

    const all = await admin.bookings.calendar({ from: day, days: 1 });
    expect(all.bookings.map((booking) => [formatTime(booking.startsAt), booking.service, booking.customerName])).toEqual([
      [formatTime(consultation!.startsAt), "Consultation calendar", "Carol Dlamini"],
      ["10:00", "Office clean calendar", "Ayanda Zulu"],
      ["10:00", "Office clean calendar", "Bongani Khumalo"],
    ]);
    const ayanda = all.bookings.find((booking) => booking.customerName === "Ayanda Zulu")!;
    expect(ayanda).toMatchObject({ reference: first.reference, phone: "+27821112222", atOnce: 2, capacity: 2, location: "customer_address" });
    expect(all.services.map((each) => each.name)).toEqual(expect.arrayContaining(["Office clean calendar", "Consultation calendar"]));

    const one = await admin.bookings.calendar({ from: day, days: 1, productId: other });
    expect(one.bookings.map((booking) => booking.customerName)).toEqual(["Carol Dlamini"]);
    const week = await admin.bookings.calendar({ from: shopDay(0), days: 7 });
    expect(week.bookings.filter((booking) => booking.service.endsWith("calendar"))).toHaveLength(3);
    expect((await admin.bookings.calendar({ from: shopDay(4), days: 1 })).bookings.filter((booking) => booking.service.endsWith("calendar"))).toHaveLength(0);

    // The admins' live notice of the new order names the booking first.
    expect((await admin.adminOrders.notice({ id: ayanda.orderId })).booking).toEqual({ service: "Office clean calendar", startsAt: ten!.startsAt });

    // A cancelled booking leaves the calendar.
    await admin.bookings.cancel({ bookingId: ayanda.id });
    expect((await admin.bookings.calendar({ from: day, days: 1, productId: service })).bookings.map((booking) => booking.customerName)).toEqual(["Bongani Khumalo"]);
  });
});

describe("blocked times", () => {
  it("take an afternoon's slots out of the free times and holds, list the bookings they clash with, and give them back when removed", async () => {
    const service = await newService("Laundry blocked");
    const day = shopDay(2);
    const slots = await admin.bookings.freeSlots({ productId: service, from: day, days: 1 });
    const [three] = slots.filter((slot) => formatTime(slot.startsAt) === "15:00");
    const booked = await book(service, three!.startsAt, "Dineo Mokoena");

    expect((await admin.bookings.addBlock({ productId: service, from: `${day}T12:00`, to: `${day}T18:00`, reason: "Team training" })).message).toBe(c.blockAdded);
    const after = (await admin.bookings.freeSlots({ productId: service, from: day, days: 1 })).map((slot) => formatTime(slot.startsAt));
    // 11:30 ends at 12:30, inside the block; 11:00 ends at 12:00, before it.
    expect(after.at(-1)).toBe("11:00");
    const customer = await callerAs(db, await createUser(db));
    const [noon] = slots.filter((slot) => formatTime(slot.startsAt) === "13:00");
    expect((await trpcRefusal(customer.cart.addBooking({ productId: service, startsAt: noon!.startsAt.toISOString() }))).message).toBe(messages.bookings.slotTaken);

    const [block] = (await admin.bookings.blocks()).filter((each) => each.productId === service);
    expect(block).toMatchObject({ service: "Laundry blocked", reason: "Team training" });
    expect(block!.clashes.map((clash) => [clash.reference, clash.customerName])).toEqual([[booked.reference, "Dineo Mokoena"]]);

    // A closed day for every service.
    const other = await newService("Consultation blocked");
    await admin.bookings.addBlock({ productId: null, from: `${shopDay(5)}T00:00`, to: `${shopDay(6)}T00:00`, reason: "Closed" });
    expect(await admin.bookings.freeSlots({ productId: other, from: shopDay(5), days: 1 })).toEqual([]);
    expect((await admin.bookings.freeSlots({ productId: other, from: shopDay(6), days: 1 })).length).toBeGreaterThan(0);

    expect((await admin.bookings.removeBlock({ id: block!.id })).message).toBe(c.blockRemoved);
    expect((await admin.bookings.freeSlots({ productId: service, from: day, days: 1 })).map((slot) => formatTime(slot.startsAt))).toContain("13:00");
    expect((await trpcRefusal(admin.bookings.removeBlock({ id: block!.id }))).code).toBe("NOT_FOUND");
  });

  it("refuses a block that ends before it starts, changing nothing", async () => {
    const before = await admin.bookings.blocks();
    const refused = await trpcRefusal(admin.bookings.addBlock({ productId: null, from: `${shopDay(3)}T15:00`, to: `${shopDay(3)}T12:00`, reason: "" }));
    expect({ code: refused.code, message: refused.message }).toEqual({ code: "BAD_REQUEST", message: c.blockOrder });
    expect(await admin.bookings.blocks()).toEqual(before);
  });
});
