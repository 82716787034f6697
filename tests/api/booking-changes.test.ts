import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatDateTime, shopDay } from "@/lib/days";
import { messages } from "@/lib/messages";
import { sendDueReminders } from "@/server/bookings/bookings-queries";
import { renderMail } from "@/server/mail/render";
import type { MailTemplate } from "@/server/mail/schemas";
import { whatsappMessageFor } from "@/server/messaging/templates";
import { trpcRefusal } from "../helpers/attempt";
import { callerAs, type Caller } from "../helpers/browser";
import { createUser, freshDatabase, type TestDatabase, type TestUser } from "../helpers/database";
import { fileOf, makePng } from "../helpers/images";

/**
 * Changing and cancelling bookings (issue 38; docs/bookings.md): the customer cancels until the
 * notice limit, an admin any booking; each change frees the time at once and is mailed with a
 * calendar file whose event keeps its uid; the 24-hour reminder goes out once per start, never
 * after a cancellation or for a time moved away from, and two sweeps at once send it once.
 */
const b = messages.bookings;
let db: TestDatabase;
let admin: Caller;
let categoryId: string;
const SHOP = {
  name: "Our World",
  siteUrl: "https://shop.example.test",
  email: "hello@example.test",
  phone: "+27 11 000 0000",
  bank: { accountName: "Our World", bankName: "FNB", accountNumber: "62000000000", branchCode: "250655", accountType: "Cheque" },
};

beforeAll(async () => {
  db = await freshDatabase();
  admin = await callerAs(db, await createUser(db, { role: "admin" }));
  categoryId = (await db.kysely.selectFrom("categories").select("id").limit(1).executeTakeFirstOrThrow()).id;
});

afterAll(async () => {
  await db?.close();
});

/** A one-hour R600 service every day 08:00-18:00, one at a time, `noticeHours` notice, refunded until `refundUntilHours` before. */
async function newService(name: string, noticeHours = 0, refundUntilHours = 0) {
  const id = (await db.kysely.insertInto("products").values({ name, price: "600.00", category_id: categoryId, image_path: null }).returning("id").executeTakeFirstOrThrow()).id;
  await db.kysely
    .insertInto("bookable_services")
    .values({ product_id: id, duration_minutes: 60, notice_hours: noticeHours, deposit: "percent", deposit_percent: 50, refund_until_hours: refundUntilHours })
    .execute();
  for (let weekday = 1; weekday <= 7; weekday++) {
    await db.kysely.insertInto("bookable_service_hours").values({ product_id: id, weekday, opens: "08:00", closes: "18:00" }).execute();
  }
  return id;
}

function orderForm(reference: string) {
  const data = new FormData();
  data.set("proof", fileOf(makePng(), "proof.png"));
  data.set("reference", reference);
  data.set("idempotencyKey", randomUUID());
  return data;
}

/** A customer's booking of the service's `nth` free time `daysAhead` days from today, checked out by bank transfer. */
async function booked(productId: string, daysAhead = 2, nth = 0): Promise<{ user: TestUser; caller: Caller; orderId: string; reference: string; bookingId: string; startsAt: Date }> {
  const user = await createUser(db, { fullName: "Sipho Ndlovu" });
  const caller = await callerAs(db, user);
  const slots = await caller.bookings.freeSlots({ productId, from: shopDay(daysAhead), days: 1 });
  const slot = slots[nth]!;
  await caller.cart.addBooking({ productId, startsAt: slot.startsAt.toISOString() });
  const placed = await caller.checkout.placeOrder(orderForm((await caller.checkout.start()).reference!));
  const booking = await db.kysely.selectFrom("bookings").select("id").where("order_id", "=", placed.orderId).executeTakeFirstOrThrow();
  return { user, caller, orderId: placed.orderId, reference: placed.reference, bookingId: booking.id, startsAt: slot.startsAt };
}

async function freeTimes(productId: string, daysAhead = 2) {
  return (await admin.bookings.freeSlots({ productId, from: shopDay(daysAhead), days: 1 })).map((slot) => slot.startsAt.getTime());
}

async function noticesOf(bookingId: string, template: MailTemplate) {
  const rows = await db.kysely.selectFrom("mail_outbox").select(["id", "template", "data", "channel"]).where("template", "=", template).orderBy("created_at").execute();
  return rows.filter((row) => (row.data as { bookingId?: string }).bookingId === bookingId);
}

describe("cancelling a booking", () => {
  it("the customer cancels their own until the notice limit: the time is free at once, the order cancelled with it and the deposit credited within the refund rule", async () => {
    const service = await newService("Office clean cancel");
    const { caller, orderId, reference, bookingId, startsAt } = await booked(service);
    await admin.adminOrders.updateStatus({ id: orderId, status: "pending_delivery" });
    expect(await freeTimes(service)).not.toContain(startsAt.getTime());

    // Not someone else's.
    const stranger = await callerAs(db, await createUser(db));
    expect((await trpcRefusal(stranger.bookings.cancel({ bookingId }))).code).toBe("NOT_FOUND");

    expect((await caller.bookings.cancel({ bookingId })).message).toBe(b.cancelled("Office clean cancel", formatDateTime(startsAt)));
    expect(await freeTimes(service)).toContain(startsAt.getTime());
    expect((await db.kysely.selectFrom("orders").select("status").where("id", "=", orderId).executeTakeFirstOrThrow()).status).toBe("cancelled");
    const invoices = await db.kysely.selectFrom("invoices").select(["kind", "total"]).where("order_id", "=", orderId).orderBy("issued_at").orderBy("serial").execute();
    expect(invoices).toEqual([
      { kind: "invoice", total: "300.00" },
      { kind: "credit_note", total: "300.00" },
    ]);
    // Mailed as a cancelled calendar event with the order mail's uid.
    const [notice] = await noticesOf(bookingId, "booking_changed");
    expect(notice?.data).toMatchObject({ reference, bookingId, cancelled: true });
    const mail = await renderMail("booking_changed", notice!.data, SHOP);
    expect(mail.subject).toContain("Booking cancelled: Office clean cancel");
    expect(mail.attachments?.[0]?.content).toMatch(/STATUS:CANCELLED/);
    expect(mail.attachments?.[0]?.content).toContain(`UID:${reference}-${bookingId}@shop.example.test`);
    const [received] = await db.kysely.selectFrom("mail_outbox").select("data").where("template", "=", "order_received").execute().then((rows) =>
      rows.filter((row) => (row.data as { reference?: string }).reference === reference),
    );
    const orderMail = await renderMail("order_received", received!.data, SHOP);
    expect(orderMail.attachments?.[0]?.content).toContain(`UID:${reference}-${bookingId}@shop.example.test`);

    // Once.
    expect((await trpcRefusal(caller.bookings.cancel({ bookingId }))).message).toBe(b.bookingCancelled);
  });

  it("refuses the customer inside the notice, but not an admin; after the refund rule the deposit is kept", async () => {
    // 12 hours' notice and refunded until 72 hours before: a booking tomorrow afternoon is inside both.
    const service = await newService("Consultation late", 12, 72);
    const { caller, orderId, bookingId } = await booked(service, 2);
    await admin.adminOrders.updateStatus({ id: orderId, status: "pending_delivery" });
    await db.kysely.updateTable("bookings").set({ starts_at: new Date(Date.now() + 6 * 3_600_000), ends_at: new Date(Date.now() + 7 * 3_600_000), free_at: new Date(Date.now() + 7 * 3_600_000) }).where("id", "=", bookingId).execute();
    const late = await trpcRefusal(caller.bookings.cancel({ bookingId }));
    expect({ code: late.code, message: late.message }).toEqual({ code: "PRECONDITION_FAILED", message: b.tooLate });
    expect((await db.kysely.selectFrom("bookings").select("status").where("id", "=", bookingId).executeTakeFirstOrThrow()).status).toBe("booked");

    await admin.bookings.cancel({ bookingId });
    const invoices = await db.kysely.selectFrom("invoices").select(["kind"]).where("order_id", "=", orderId).execute();
    expect(invoices.map((invoice) => invoice.kind)).toEqual(["invoice"]);
  });

  it("an admin moves any booking; the old time is free at once and the customer is mailed the new time under the same uid", async () => {
    const service = await newService("Laundry move");
    const { bookingId, reference, startsAt } = await booked(service);
    const [, later] = await admin.bookings.freeSlots({ productId: service, from: shopDay(2), days: 1 });
    await admin.bookings.move({ bookingId, startsAt: later!.startsAt.toISOString() });
    expect(await freeTimes(service)).toContain(startsAt.getTime());
    const [notice] = await noticesOf(bookingId, "booking_changed");
    expect(notice?.data).toMatchObject({ cancelled: false, startsAt: expect.any(String) });
    expect(new Date((notice!.data as { startsAt: string }).startsAt).getTime()).toBe(later!.startsAt.getTime());
    const mail = await renderMail("booking_changed", notice!.data, SHOP);
    expect(mail.attachments?.[0]?.content).toMatch(/STATUS:CONFIRMED/);
    expect(mail.attachments?.[0]?.content).toContain(`UID:${reference}-${bookingId}@shop.example.test`);
    expect(mail.attachments?.[0]?.content).toMatch(/SEQUENCE:\d+/);
  });
});

describe("the 24-hour reminder", () => {
  it("goes out once for a booking within 24 hours, never after a cancellation, and only for a moved booking's new time", async () => {
    const service = await newService("Reminder clean");
    const first = await booked(service, 1, 0);
    const cancelled = await booked(service, 1, 2);
    const moved = await booked(service, 2, 0);
    const now = new Date(first.startsAt.getTime() - 20 * 3_600_000);
    await cancelled.caller.bookings.cancel({ bookingId: cancelled.bookingId });

    await sendDueReminders(db.kysely, now, 100);
    await sendDueReminders(db.kysely, now, 100);
    expect(await noticesOf(first.bookingId, "booking_reminder")).toHaveLength(1);
    expect(await noticesOf(cancelled.bookingId, "booking_reminder")).toHaveLength(0);
    expect(await noticesOf(moved.bookingId, "booking_reminder")).toHaveLength(0);

    // The booking two days ahead comes within 24 hours of its own start: reminded once; then moved to tomorrow's last free time, reminded again for that time only.
    const dueMoved = new Date(moved.startsAt.getTime() - 20 * 3_600_000);
    await sendDueReminders(db.kysely, dueMoved, 100);
    expect(await noticesOf(moved.bookingId, "booking_reminder")).toHaveLength(1);
    const [later] = (await admin.bookings.freeSlots({ productId: service, from: shopDay(2), days: 1 })).slice(-1);
    await admin.bookings.move({ bookingId: moved.bookingId, startsAt: later!.startsAt.toISOString() });
    await sendDueReminders(db.kysely, new Date(later!.startsAt.getTime() - 20 * 3_600_000), 100);
    await sendDueReminders(db.kysely, new Date(later!.startsAt.getTime() - 19 * 3_600_000), 100);
    // The old time's reminder had not gone out (no worker here): the move withdrew it.
    const reminders = await noticesOf(moved.bookingId, "booking_reminder");
    expect(reminders.map((row) => new Date((row.data as { startsAt: string }).startsAt).getTime())).toEqual([later!.startsAt.getTime()]);

    const mail = await renderMail("booking_reminder", reminders[0]!.data, SHOP);
    expect(mail.subject).toContain("Reminder: Reminder clean");
  });

  it("written but not yet sent when the booking is cancelled, it is withdrawn; one already sent stays in the outbox", async () => {
    const service = await newService("Reminder withdrawn");
    const waiting = await booked(service, 1, 0);
    const gone = await booked(service, 1, 1);
    await sendDueReminders(db.kysely, new Date(waiting.startsAt.getTime() - 20 * 3_600_000), 100);
    expect(await noticesOf(waiting.bookingId, "booking_reminder")).toHaveLength(1);
    expect(await noticesOf(gone.bookingId, "booking_reminder")).toHaveLength(1);
    const [sent] = await noticesOf(gone.bookingId, "booking_reminder");
    await db.kysely.updateTable("mail_outbox").set({ sent_at: new Date() }).where("id", "=", sent!.id).execute();

    await waiting.caller.bookings.cancel({ bookingId: waiting.bookingId });
    await gone.caller.bookings.cancel({ bookingId: gone.bookingId });
    expect(await noticesOf(waiting.bookingId, "booking_reminder")).toHaveLength(0);
    expect(await noticesOf(waiting.bookingId, "booking_changed")).toHaveLength(1);
    expect(await noticesOf(gone.bookingId, "booking_reminder")).toHaveLength(1);
  });

  it("is sent once however many sweeps run at once", async () => {
    const service = await newService("Reminder race");
    const one = await booked(service, 1, 1);
    const now = new Date(one.startsAt.getTime() - 2 * 3_600_000);
    const sent = await Promise.all(Array.from({ length: 5 }, () => sendDueReminders(db.kysely, now, 100)));
    expect(sent.reduce((sum, count) => sum + count, 0)).toBeGreaterThanOrEqual(1);
    expect(await noticesOf(one.bookingId, "booking_reminder")).toHaveLength(1);
  });

  it("goes by WhatsApp for a customer who consented, with its own template", async () => {
    const service = await newService("Reminder whatsapp");
    const one = await booked(service, 1, 3);
    await db.kysely
      .insertInto("messaging_consents")
      .values({ user_id: one.user.id, kind: "whatsapp_updates", phone: "+27821234567", source: "profile", words: "Send my order updates on WhatsApp." })
      .execute();
    await sendDueReminders(db.kysely, new Date(one.startsAt.getTime() - 3_600_000), 100);
    const [reminder] = await noticesOf(one.bookingId, "booking_reminder");
    expect(reminder?.channel).toBe("whatsapp");
    const message = whatsappMessageFor({ template: "booking_reminder", data: reminder!.data }, SHOP);
    expect(message).toMatchObject({ kind: "template", template: "booking_reminder" });
    if (message?.kind === "template") expect(message.parameters).toEqual(["Sipho Ndlovu", "Reminder whatsapp", expect.any(String), one.reference]);
    // A move or cancellation is not a WhatsApp template: it goes by e-mail, with its calendar file.
    expect(whatsappMessageFor({ template: "booking_changed", data: reminder!.data }, SHOP)).toBeNull();
  });
});
