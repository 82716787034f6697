import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BOOKING_HOLD_MINUTES } from "@/lib/constants";
import { addDays, formatDateTime, shopDay } from "@/lib/days";
import { messages } from "@/lib/messages";
import { runAs } from "@/server/db/as-caller";
import { attempt, trpcRefusal } from "../helpers/attempt";
import { callerAs, type Caller } from "../helpers/browser";
import { createUser, freshDatabase, type TestDatabase, type TestUser } from "../helpers/database";
import { fileOf, makePng } from "../helpers/images";
import { callPlaceOrder, openReference, storeProof } from "../helpers/orders";

/**
 * Bookable services (issue 38; docs/bookings.md): free times, a slot held in the cart for
 * BOOKING_HOLD_MINUTES, and place_order booking it in its own transaction, never past capacity.
 */
let db: TestDatabase;
let admin: Caller;
let visitor: Caller;
let categoryId: string;

beforeAll(async () => {
  db = await freshDatabase();
  admin = await callerAs(db, await createUser(db, { role: "admin" }));
  visitor = await callerAs(db, null);
  categoryId = (await db.kysely.selectFrom("categories").select("id").limit(1).executeTakeFirstOrThrow()).id;
});

afterAll(async () => {
  await db?.close();
});

/** A bookable service of two hours, bookable every day 08:00-18:00 with no notice, `capacity` at once. */
async function newService(name: string, capacity = 1) {
  const id = (await db.kysely.insertInto("products").values({ name, price: "900.00", category_id: categoryId, image_path: null }).returning("id").executeTakeFirstOrThrow()).id;
  await db.kysely.insertInto("bookable_services").values({ product_id: id, duration_minutes: 120, capacity, notice_hours: 0 }).execute();
  for (let weekday = 1; weekday <= 7; weekday++) {
    await db.kysely.insertInto("bookable_service_hours").values({ product_id: id, weekday, opens: "08:00", closes: "18:00" }).execute();
  }
  const variant = (await db.kysely.selectFrom("product_variants").select("id").where("product_id", "=", id).executeTakeFirstOrThrow()).id;
  return { id, variant };
}

/** Tomorrow's free times of a service, as anyone sees them. */
async function tomorrow(productId: string) {
  return visitor.bookings.freeSlots({ productId, from: shopDay(1), days: 1 });
}

function placeOrderForm(reference: string) {
  const data = new FormData();
  data.set("proof", fileOf(makePng(), "proof.png"));
  data.set("reference", reference);
  data.set("idempotencyKey", randomUUID());
  return data;
}

/** Places `user`'s cart as it is, in SQL, as `user`; `beforeCommit` runs with the order placed and its transaction still open. */
async function checkout(user: TestUser, beforeCommit?: () => Promise<void>) {
  return runAs(db.kysely, user.identity, async (trx) => {
    const reference = (await openReference(trx))!;
    const proofPath = await storeProof(trx, user);
    const order = await callPlaceOrder(trx, { idempotencyKey: randomUUID(), reference, proofPath });
    await beforeCommit?.();
    return order;
  });
}

/** A line of `user`'s holding `startsAt` whose hold ran out a minute ago (as a cart left for a while is). */
async function expiredHold(user: TestUser, service: { id: string; variant: string }, startsAt: Date) {
  await db.kysely
    .insertInto("cart_items")
    .values({ user_id: user.id, product_id: service.id, variant_id: service.variant, slot_starts_at: startsAt, hold_expires_at: new Date(Date.now() - 60_000) })
    .execute();
}

async function bookingsOf(productId: string) {
  return db.kysely.selectFrom("bookings").select(["user_id", "starts_at", "status"]).where("product_id", "=", productId).execute();
}

describe("holding a slot", () => {
  it("holds a free time for BOOKING_HOLD_MINUTES, shows it on the cart line, and takes it out of everyone else's free times", async () => {
    const service = await newService("Office clean");
    const slots = await tomorrow(service.id);
    expect(slots.length).toBe(17);
    const [first] = slots;
    const customer = await callerAs(db, await createUser(db));

    // Without a time, a service is not added.
    const refused = await trpcRefusal(customer.cart.add({ productId: service.id }));
    expect(refused.message).toBe(messages.cart.slotRequired);

    const before = Date.now();
    const held = await customer.cart.addBooking({ productId: service.id, startsAt: first!.startsAt.toISOString() });
    expect(held.message).toBe(messages.bookings.held("Office clean", formatDateTime(first!.startsAt)));
    const minutes = (held.holdExpiresAt.getTime() - before) / 60_000;
    expect(minutes).toBeGreaterThan(BOOKING_HOLD_MINUTES - 1);
    expect(minutes).toBeLessThanOrEqual(BOOKING_HOLD_MINUTES + 0.1);

    const [line] = (await customer.cart.list()).lines;
    expect(line).toMatchObject({ name: "Office clean", quantity: 1, slotStartsAt: first!.startsAt, holdExpiresAt: held.holdExpiresAt });
    // One line is one booking.
    expect((await trpcRefusal(customer.cart.increase({ lineId: line!.id }))).message).toBe(messages.cart.oneBookingPerLine);

    // Capacity one: the held time (and the times running into it) are gone for others, but not for the holder.
    const others = (await tomorrow(service.id)).map((slot) => slot.startsAt.getTime());
    expect(others).not.toContain(first!.startsAt.getTime());
    const other = await callerAs(db, await createUser(db));
    const taken = await trpcRefusal(other.cart.addBooking({ productId: service.id, startsAt: first!.startsAt.toISOString() }));
    expect({ code: taken.code, message: taken.message }).toEqual({ code: "CONFLICT", message: messages.bookings.slotTaken });
    // Holding it again renews the hold.
    await customer.cart.addBooking({ productId: service.id, startsAt: first!.startsAt.toISOString() });
    expect((await customer.cart.list()).lines).toHaveLength(1);
  });

  it("refuses a time that is not offered, and a slot written into a cart by hand", async () => {
    const service = await newService("Laundry collection");
    const user = await createUser(db);
    const customer = await callerAs(db, user);
    const night = new Date(`${addDays(shopDay(), 1)}T23:00:00+02:00`);
    expect((await trpcRefusal(customer.cart.addBooking({ productId: service.id, startsAt: night.toISOString() }))).message).toBe(messages.bookings.slotTaken);
    const byHand = await attempt(db, user.identity, (trx) =>
      trx.insertInto("cart_items").values({ user_id: user.id, product_id: service.id, variant_id: service.variant, slot_starts_at: night, hold_expires_at: new Date(Date.now() + 3_600_000) }).execute(),
    );
    expect(byHand.ok).toBe(false);
    // Nor can a customer add the service as goods, past the procedure.
    const asGoods = await attempt(db, user.identity, (trx) => sql`select public.add_variant_to_cart(${service.variant}::uuid)`.execute(trx));
    expect(String(asGoods.error)).toMatch(/slot_required/);
  });

  it("says the same hold length in SQL as BOOKING_HOLD_MINUTES", async () => {
    const { rows } = await sql<{ body: string }>`select prosrc as body from pg_proc where proname = 'add_booking_to_cart'`.execute(db.kysely);
    expect(rows[0]!.body).toContain(`now() + interval '${BOOKING_HOLD_MINUTES} minutes'`);
  });
});

describe("booking at checkout", () => {
  it("turns the hold into a booking in place_order's transaction, and the order line keeps the slot", async () => {
    const service = await newService("Risk consultation");
    const user = await createUser(db);
    const customer = await callerAs(db, user);
    const [slot] = await tomorrow(service.id);
    await customer.cart.addBooking({ productId: service.id, startsAt: slot!.startsAt.toISOString() });
    const { reference } = await customer.checkout.start();
    await customer.checkout.placeOrder(placeOrderForm(reference!));
    expect(await bookingsOf(service.id)).toEqual([{ user_id: user.id, starts_at: slot!.startsAt, status: "booked" }]);
    const line = await db.kysely.selectFrom("order_items").select(["slot_starts_at", "slot_ends_at"]).where("product_id", "=", service.id).executeTakeFirstOrThrow();
    expect(line).toEqual({ slot_starts_at: slot!.startsAt, slot_ends_at: slot!.endsAt });
    expect((await tomorrow(service.id)).map((s) => s.startsAt.getTime())).not.toContain(slot!.startsAt.getTime());
    // The order mail carries the booked time (the mail words it and attaches it as a calendar file).
    const mail = await db.kysely.selectFrom("mail_outbox").select("data").where("template", "=", "order_received").where("recipient", "=", user.email).executeTakeFirstOrThrow();
    const [item] = (mail.data as { items: { startsAt?: string; endsAt?: string }[] }).items;
    expect({ startsAt: new Date(item!.startsAt!), endsAt: new Date(item!.endsAt!) }).toEqual({ startsAt: slot!.startsAt, endsAt: slot!.endsAt });
    // Its customer reads it; another customer does not.
    expect(await runAs(db.kysely, user.identity, (trx) => trx.selectFrom("bookings").select("id").execute())).toHaveLength(1);
    expect(await runAs(db.kysely, (await createUser(db)).identity, (trx) => trx.selectFrom("bookings").select("id").execute())).toHaveLength(0);
  });

  it("books an expired hold whose time is still free, and refuses one whose time was taken, naming the line and keeping the cart", async () => {
    const service = await newService("Embroidery consultation");
    const [slot, later] = await tomorrow(service.id);
    const early = await createUser(db);
    await expiredHold(early, service, slot!.startsAt);
    await checkout(early);
    expect(await bookingsOf(service.id)).toHaveLength(1);

    const late = await createUser(db);
    const lateCaller = await callerAs(db, late);
    await expiredHold(late, service, slot!.startsAt);
    const { reference } = await lateCaller.checkout.start();
    const error = await trpcRefusal(lateCaller.checkout.placeOrder(placeOrderForm(reference!)));
    expect({ code: error.code, message: error.message }).toEqual({
      code: "CONFLICT",
      message: messages.checkout.slotTaken("Embroidery consultation", formatDateTime(slot!.startsAt)),
    });
    expect((await lateCaller.cart.list()).lines).toHaveLength(1);
    expect(await db.kysely.selectFrom("orders").select("id").where("user_id", "=", late.id).execute()).toEqual([]);
    expect(await bookingsOf(service.id)).toHaveLength(1);
    expect(later).toBeDefined();
  });

  it("20 checkouts at once for the last place: one booking, 19 refusals naming the line, their carts kept", async () => {
    const service = await newService("Deep clean");
    const [slot] = await tomorrow(service.id);
    const buyers = await Promise.all(Array.from({ length: 20 }, () => createUser(db)));
    for (const buyer of buyers) await expiredHold(buyer, service, slot!.startsAt);
    const outcomes = await Promise.allSettled(buyers.map((buyer) => checkout(buyer)));
    const booked = outcomes.filter((outcome) => outcome.status === "fulfilled");
    const refused = outcomes.filter((outcome): outcome is PromiseRejectedResult => outcome.status === "rejected");
    expect(booked).toHaveLength(1);
    expect(refused).toHaveLength(19);
    for (const outcome of refused) {
      expect(String(outcome.reason)).toMatch(/slot_taken/);
      expect((outcome.reason as { detail?: string }).detail).toContain('"name" : "Deep clean"');
    }
    expect(await bookingsOf(service.id)).toHaveLength(1);
    expect(await db.kysely.selectFrom("cart_items").select("id").where("product_id", "=", service.id).execute()).toHaveLength(19);
  });

  it("checkouts racing for times that overlap from different starts never book two that overlap", async () => {
    // Two hours at once, one place: starts every 30 minutes overlap their neighbours across hours.
    const service = await newService("Carpet clean");
    const starts = (await tomorrow(service.id)).map((slot) => slot.startsAt);
    const buyers = await Promise.all(Array.from({ length: 16 }, () => createUser(db)));
    const wanted = buyers.map((_, i) => starts[(i * 5) % starts.length]!);
    for (const [i, buyer] of buyers.entries()) await expiredHold(buyer, service, wanted[i]!);
    const outcomes = await Promise.allSettled(buyers.map((buyer) => checkout(buyer)));
    const booked = (await bookingsOf(service.id)).filter((b) => b.status === "booked").map((b) => b.starts_at.getTime());
    const twoHours = 2 * 60 * 60_000;
    const overlaps = (a: number, b: number) => a < b + twoHours && b < a + twoHours;
    expect(booked.length).toBeGreaterThan(0);
    for (const [i, a] of booked.entries()) for (const b of booked.slice(i + 1)) expect(overlaps(a, b)).toBe(false);
    for (const [i, outcome] of outcomes.entries()) {
      if (outcome.status === "fulfilled") continue;
      expect(String(outcome.reason)).toMatch(/slot_taken/);
      // Refused only for a time that a booking kept overlaps.
      expect(booked.some((b) => overlaps(b, wanted[i]!.getTime()))).toBe(true);
    }
    expect(outcomes.filter((outcome) => outcome.status === "fulfilled")).toHaveLength(booked.length);
  });

  it("a checkout waits only for one taking an overlapping time of the service, not for other times (PostgreSQL)", async (context) => {
    // PGlite has one connection: its transactions run one after another anyway.
    if (db.label === "pglite") context.skip();
    const service = await newService("Window clean");
    // Paid in full at checkout: the order waits for its payment (one with nothing to pay would be
    // paid at once, and paid orders of a day queue on the day's sales row, whatever they book).
    await db.kysely.updateTable("bookable_services").set({ deposit: "full" }).where("product_id", "=", service.id).execute();
    const starts = (await tomorrow(service.id)).map((slot) => slot.startsAt.getTime());
    const first = starts[0]!;
    const overlapping = starts.find((at) => at > first + 60 * 60_000 && at < first + 2 * 60 * 60_000)!; // in the next hour
    const apart = starts.find((at) => at >= first + 4 * 60 * 60_000)!;
    const [a, b, c] = await Promise.all([createUser(db), createUser(db), createUser(db)]);
    await expiredHold(a!, service, new Date(first));
    await expiredHold(b!, service, new Date(apart));
    await expiredHold(c!, service, new Date(overlapping));
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let booked!: () => void;
    const inside = new Promise<void>((resolve) => (booked = resolve));
    // The first checkout's transaction stays open, its locks held, until released.
    const open = checkout(a!, async () => {
      booked();
      await held;
    });
    await inside;
    // Another time of the same service goes through while the first is still open.
    await checkout(b!);
    // An overlapping one waits for the first's lock, then sees its booking.
    const waiting = checkout(c!).then(() => "booked", (error: unknown) => String(error));
    const waitsOnLock = async () =>
      Number((await sql<{ n: string }>`select count(*) as n from pg_locks where locktype = 'advisory' and not granted`.execute(db.kysely)).rows[0]!.n);
    for (let tries = 0; (await waitsOnLock()) === 0 && tries < 200; tries++) await new Promise((resolve) => setTimeout(resolve, 25));
    expect(await waitsOnLock()).toBe(1);
    release();
    await open;
    expect(await waiting).toMatch(/slot_taken/);
    expect((await bookingsOf(service.id)).map((row) => row.starts_at.getTime()).sort((x, y) => x - y)).toEqual([first, apart]);
  });

  it("frees the slot when the order is cancelled, and will not reopen it", async () => {
    const service = await newService("Office clean (weekly)");
    const [slot] = await tomorrow(service.id);
    const user = await createUser(db);
    await expiredHold(user, service, slot!.startsAt);
    const order = await checkout(user);
    expect((await tomorrow(service.id)).map((s) => s.startsAt.getTime())).not.toContain(slot!.startsAt.getTime());
    await admin.adminOrders.updateStatus({ id: order.id, status: "cancelled" });
    expect(await bookingsOf(service.id)).toEqual([{ user_id: user.id, starts_at: slot!.startsAt, status: "cancelled" }]);
    expect((await tomorrow(service.id)).map((s) => s.startsAt.getTime())).toContain(slot!.startsAt.getTime());
    const refused = await trpcRefusal(admin.adminOrders.updateStatus({ id: order.id, status: "pending_payment" }));
    expect({ code: refused.code, message: refused.message }).toEqual({ code: "CONFLICT", message: messages.adminOrders.reopenBooked });
  });
});

describe("the admin's Booking panel", () => {
  it("marks a product bookable with its settings and own hours, shows it to shoppers as one, and stops it again", async () => {
    const id = (await db.kysely.insertInto("products").values({ name: "Branding consultation", price: "650.00", category_id: categoryId, image_path: null }).returning("id").executeTakeFirstOrThrow()).id;
    expect(await admin.adminProducts.booking({ id })).toBeNull();
    const settings = {
      durationMinutes: 90,
      bufferMinutes: 15,
      capacity: 2,
      noticeHours: 12,
      horizonDays: 14,
      location: "online" as const,
      deposit: "percent" as const,
      depositPercent: 30,
      refundUntilHours: 24,
      hours: [
        { weekday: 6, mode: "open" as const, opens: "08:00", closes: "12:00" },
        { weekday: 1, mode: "closed" as const, opens: "09:00", closes: "16:00" },
      ],
    };
    expect((await admin.adminProducts.saveBooking({ productId: id, settings })).message).toBe(messages.bookings.admin.saved("Branding consultation"));
    expect(await admin.adminProducts.booking({ id })).toEqual({ ...settings, hours: [settings.hours[1], settings.hours[0]] });
    expect((await visitor.catalogue.byId({ id })).bookable).toBe(true);

    // A percentage deposit needs its percentage; hours must close after they open.
    const noPercent = await trpcRefusal(admin.adminProducts.saveBooking({ productId: id, settings: { ...settings, depositPercent: null } }));
    expect(noPercent.message).toBe(messages.bookings.admin.depositPercent);
    const backwards = await trpcRefusal(admin.adminProducts.saveBooking({ productId: id, settings: { ...settings, hours: [{ weekday: 2, mode: "open", opens: "12:00", closes: "08:00" }] } }));
    expect(backwards.message).toBe(messages.bookings.admin.hoursOrder);

    expect((await admin.adminProducts.saveBooking({ productId: id, settings: null })).message).toBe(messages.bookings.admin.stopped("Branding consultation"));
    expect(await admin.adminProducts.booking({ id })).toBeNull();
    expect((await visitor.catalogue.byId({ id })).bookable).toBe(false);
  });
});

describe("moving a booking", () => {
  it("moves the customer's own booking to another free time, freeing the old one at once; until the notice for customers, any time for admins", async () => {
    const service = await newService("Window cleaning");
    const slots = await tomorrow(service.id);
    const [eight, eightThirty, , , ten] = slots;
    const user = await createUser(db);
    const customer = await callerAs(db, user);
    await expiredHold(user, service, eight!.startsAt);
    const order = await checkout(user);
    const booking = (await db.kysely.selectFrom("bookings").select("id").where("order_id", "=", order.id).executeTakeFirstOrThrow()).id;
    const times = async () => (await tomorrow(service.id)).map((slot) => slot.startsAt.getTime());

    // Within its own span (08:00-10:00 to 08:30-10:30): its own place is not in its way.
    const moved = await customer.bookings.move({ bookingId: booking, startsAt: eightThirty!.startsAt.toISOString() });
    expect(moved.message).toBe(messages.bookings.moved("Window cleaning", formatDateTime(eightThirty!.startsAt)));
    expect(await times()).not.toContain(eightThirty!.startsAt.getTime());
    expect(await times()).not.toContain(eight!.startsAt.getTime());
    const line = await db.kysely.selectFrom("order_items").select("slot_starts_at").where("order_id", "=", order.id).executeTakeFirstOrThrow();
    expect(line.slot_starts_at).toEqual(eightThirty!.startsAt);

    // Another customer's 10:00 booking is in the way of 10:00.
    const other = await createUser(db);
    await expiredHold(other, service, new Date(ten!.startsAt.getTime() + 60 * 60_000));
    await checkout(other);
    const taken = await trpcRefusal(customer.bookings.move({ bookingId: booking, startsAt: ten!.startsAt.toISOString() }));
    expect({ code: taken.code, message: taken.message }).toEqual({ code: "CONFLICT", message: messages.bookings.slotTaken });
    expect((await db.kysely.selectFrom("bookings").select("starts_at").where("id", "=", booking).executeTakeFirstOrThrow()).starts_at).toEqual(eightThirty!.startsAt);

    // Nobody else moves it.
    const stranger = await callerAs(db, await createUser(db));
    expect((await trpcRefusal(stranger.bookings.move({ bookingId: booking, startsAt: eight!.startsAt.toISOString() }))).code).toBe("NOT_FOUND");

    // Inside the notice the customer cannot; the admin can.
    await db.kysely.updateTable("bookable_services").set({ notice_hours: 72 }).where("product_id", "=", service.id).execute();
    const late = await trpcRefusal(customer.bookings.move({ bookingId: booking, startsAt: eight!.startsAt.toISOString() }));
    expect({ code: late.code, message: late.message }).toEqual({ code: "PRECONDITION_FAILED", message: messages.bookings.tooLate });
    await admin.bookings.move({ bookingId: booking, startsAt: eight!.startsAt.toISOString() });
    expect((await db.kysely.selectFrom("bookings").select("starts_at").where("id", "=", booking).executeTakeFirstOrThrow()).starts_at).toEqual(eight!.startsAt);
  });
});
