/**
 * The bookings' commands for tests/api/booking-model.test.ts (issue 38): customers hold times,
 * check out, move and cancel their bookings, an admin moves and cancels any, against a small
 * model of one service with one place. Each command says from the model what the API must answer,
 * calls it, compares, updates the model; then the invariants: never two bookings of one time, the
 * bookings as the model has them, and the free times everyone sees are the times nobody booked or
 * holds.
 */
import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { expect } from "vitest";
import { messages } from "@/lib/messages";
import type { Caller } from "../browser";
import type { TestDatabase } from "../database";
import { answer, countStep, expectOk, expectRefused } from "./answers";

/** Customers of a run: few, so their commands collide. */
export const BOOKING_CUSTOMERS = 2;
/** The times of a run: half-hour slots one after the other (a 30-minute service: no two overlap). */
export const BOOKING_TIMES = 4;

export interface BookingModel {
  /** Time index → the customer holding it in their cart (a live hold), or none. */
  holds: (number | null)[];
  /** Booked bookings: their id, whose, and which time. */
  bookings: { id: string; customer: number; time: number }[];
}

export interface BookingReal {
  db: TestDatabase;
  productId: string;
  /** The times' starts (ISO), BOOKING_TIMES of them. */
  times: string[];
  customers: Caller[];
  customerIds: string[];
  admin: Caller;
  visitor: Caller;
}

type BookingCommand = fc.AsyncCommand<BookingModel, BookingReal>;

const b = messages.bookings;
const takenBy = (model: Readonly<BookingModel>, time: number) => model.bookings.find((booking) => booking.time === time);

abstract class BookingStep implements BookingCommand {
  /** When the command makes sense (fast-check skips it otherwise); always, unless a command says. */
  precondition?(model: Readonly<BookingModel>): boolean;
  check(model: Readonly<BookingModel>): boolean {
    return this.precondition?.(model) ?? true;
  }
  protected abstract step(model: BookingModel, real: BookingReal): Promise<void>;
  async run(model: BookingModel, real: BookingReal): Promise<void> {
    countStep(String(this));
    await this.step(model, real);
    await checkBookings(model, real);
  }
  abstract toString(): string;
}

/** A customer holds a time: refused while someone else holds or has booked it; their own hold is renewed. */
class Hold extends BookingStep {
  constructor(
    readonly customer: number,
    readonly time: number,
  ) {
    super();
  }
  async step(model: BookingModel, real: BookingReal) {
    const what = `customer ${this.customer} holds time ${this.time}`;
    const result = await answer(real.customers[this.customer]!.cart.addBooking({ productId: real.productId, startsAt: real.times[this.time]! }), what);
    const holder = model.holds[this.time];
    if (takenBy(model, this.time) || (holder !== null && holder !== this.customer)) return expectRefused(result, what, "CONFLICT", b.slotTaken);
    expectOk(result, what);
    model.holds[this.time] = this.customer;
  }
  toString() {
    return `Hold(${this.customer}, ${this.time})`;
  }
}

/** A customer checks out their held times (no deposit: nothing to pay now): each becomes a booking. */
class CheckOut extends BookingStep {
  constructor(readonly customer: number) {
    super();
  }
  override precondition(model: Readonly<BookingModel>) {
    return model.holds.includes(this.customer);
  }
  async step(model: BookingModel, real: BookingReal) {
    const what = `customer ${this.customer} checks out`;
    const caller = real.customers[this.customer]!;
    const reference = expectOk(await answer(caller.checkout.start(), `${what} (reference)`), `${what} (reference)`).reference!;
    const form = new FormData();
    form.set("reference", reference);
    form.set("idempotencyKey", randomUUID());
    const placed = expectOk(await answer(caller.checkout.placeOrder(form), what), what);
    const rows = await real.db.kysely.selectFrom("bookings").select(["id", "starts_at"]).where("order_id", "=", placed.orderId).execute();
    const booked = model.holds.flatMap((holder, time) => (holder === this.customer ? [time] : []));
    expect(rows.map((row) => real.times.indexOf(new Date(row.starts_at).toISOString())).sort(), what).toEqual(booked);
    for (const row of rows) model.bookings.push({ id: row.id, customer: this.customer, time: real.times.indexOf(new Date(row.starts_at).toISOString()) });
    for (const time of booked) model.holds[time] = null;
  }
  toString() {
    return `CheckOut(${this.customer})`;
  }
}

/** Moves the `nth` booking (by the customer, or an admin): only one's own for a customer, only to a time nobody has booked or holds. */
class Move extends BookingStep {
  constructor(
    readonly by: number | "admin",
    readonly nth: number,
    readonly time: number,
  ) {
    super();
  }
  override precondition(model: Readonly<BookingModel>) {
    return model.bookings.length > 0;
  }
  async step(model: BookingModel, real: BookingReal) {
    const booking = model.bookings[this.nth % model.bookings.length]!;
    const what = `${this.by === "admin" ? "the admin" : `customer ${this.by}`} moves customer ${booking.customer}'s booking to time ${this.time}`;
    const caller = this.by === "admin" ? real.admin : real.customers[this.by]!;
    const result = await answer(caller.bookings.move({ bookingId: booking.id, startsAt: real.times[this.time]! }), what);
    if (this.by !== "admin" && this.by !== booking.customer) return expectRefused(result, what, "NOT_FOUND", b.bookingNotFound);
    const other = takenBy(model, this.time);
    if ((other && other !== booking) || model.holds[this.time] !== null) return expectRefused(result, what, "CONFLICT", b.slotTaken);
    expectOk(result, what);
    booking.time = this.time;
  }
  toString() {
    return `Move(${this.by}, #${this.nth}, ${this.time})`;
  }
}

/** Cancels the `nth` booking (by the customer, or an admin): its time is free at once. */
class Cancel extends BookingStep {
  constructor(
    readonly by: number | "admin",
    readonly nth: number,
  ) {
    super();
  }
  override precondition(model: Readonly<BookingModel>) {
    return model.bookings.length > 0;
  }
  async step(model: BookingModel, real: BookingReal) {
    const booking = model.bookings[this.nth % model.bookings.length]!;
    const what = `${this.by === "admin" ? "the admin" : `customer ${this.by}`} cancels customer ${booking.customer}'s booking`;
    const caller = this.by === "admin" ? real.admin : real.customers[this.by]!;
    const result = await answer(caller.bookings.cancel({ bookingId: booking.id }), what);
    if (this.by !== "admin" && this.by !== booking.customer) return expectRefused(result, what, "NOT_FOUND", b.bookingNotFound);
    expectOk(result, what);
    model.bookings.splice(model.bookings.indexOf(booking), 1);
    // Cancelling it again says so.
    expectRefused(await answer(caller.bookings.cancel({ bookingId: booking.id }), `${what} again`), `${what} again`, "CONFLICT", b.bookingCancelled);
  }
  toString() {
    return `Cancel(${this.by}, #${this.nth})`;
  }
}

/** After every command: one booking a time at most, the bookings the model has, and the free times nobody booked or holds. */
async function checkBookings(model: Readonly<BookingModel>, real: BookingReal) {
  const rows = await real.db.kysely
    .selectFrom("bookings")
    .select(["id", "user_id", "starts_at"])
    .where("product_id", "=", real.productId)
    .where("status", "=", "booked")
    .execute();
  const starts = rows.map((row) => new Date(row.starts_at).toISOString());
  expect(new Set(starts).size, "two bookings of one time").toBe(starts.length);
  expect(
    new Map(rows.map((row) => [row.id, { customer: real.customerIds.indexOf(row.user_id!), time: real.times.indexOf(new Date(row.starts_at).toISOString()) }])),
    "the bookings against the model",
  ).toEqual(new Map(model.bookings.map((booking) => [booking.id, { customer: booking.customer, time: booking.time }])));
  const free = (await real.visitor.bookings.freeSlots({ productId: real.productId, from: real.times[0]!.slice(0, 10), days: 1 }))
    .map((slot) => real.times.indexOf(slot.startsAt.toISOString()))
    .filter((time) => time >= 0);
  const expected = real.times.map((_, time) => time).filter((time) => !takenBy(model, time) && model.holds[time] === null);
  expect(free, "the free times everyone sees against the model").toEqual(expected);
}

const customer = fc.nat({ max: BOOKING_CUSTOMERS - 1 });
const time = fc.nat({ max: BOOKING_TIMES - 1 });
const actor = fc.oneof(customer, fc.constant("admin" as const));

/** The commands a run draws from. */
export function bookingCommands(maxCommands: number) {
  return fc.commands(
    [
      fc.tuple(customer, time).map(([who, when]) => new Hold(who, when)),
      customer.map((who) => new CheckOut(who)),
      fc.tuple(actor, fc.nat({ max: 7 }), time).map(([who, nth, when]) => new Move(who, nth, when)),
      fc.tuple(actor, fc.nat({ max: 7 })).map(([who, nth]) => new Cancel(who, nth)),
    ],
    { maxCommands },
  );
}
