import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { shopDay } from "@/lib/days";
import { messages } from "@/lib/messages";
import { runAs } from "@/server/db/as-caller";
import { receivePaymentNotification } from "@/server/payments/notification";
import type { ShopProcess } from "@/server/platform/shop-process";
import type { BookingDeposit } from "@/server/db/schema";
import { trpcRefusal } from "../helpers/attempt";
import { callerAs, testShopProcess, type Caller } from "../helpers/browser";
import { createUser, freshDatabase, type TestDatabase, type TestUser } from "../helpers/database";
import { FakePayFast, SANDBOX_MERCHANT } from "../helpers/fake-payfast";
import { fileOf, makePng } from "../helpers/images";
import { pdfText } from "../helpers/pdf-text";

/**
 * Deposits, then the balance (issue 38; docs/bookings.md): checkout asks only a booked line's
 * deposit, the order keeps its balance under its own reference, the balance is paid later by bank
 * transfer (a proof, then an admin marks it paid) or online, each payment issues its own invoice
 * (the balance's naming the deposit's), and a cancellation credits the deposit only within the
 * bookings' refund rule. Amounts are SQL's.
 */
const b = messages.bookings;
let db: TestDatabase;
let admin: Caller;
let fake: FakePayFast;
let shop: ShopProcess;
let categoryId: string;
const PAYFAST = () => ({ url: fake.url, itnSources: ["127.0.0.1/32", "::1"] });

beforeAll(async () => {
  db = await freshDatabase();
  fake = await FakePayFast.start();
  admin = await callerAs(db, await createUser(db, { role: "admin" }));
  categoryId = (await db.kysely.selectFrom("categories").select("id").limit(1).executeTakeFirstOrThrow()).id;
  await db.kysely
    .insertInto("payment_settings")
    .values({ payfast_merchant_id: SANDBOX_MERCHANT.merchantId, payfast_merchant_key: SANDBOX_MERCHANT.merchantKey, payfast_passphrase: SANDBOX_MERCHANT.passphrase, payfast_sandbox: true })
    .execute();
  shop = await testShopProcess(db, { payfast: PAYFAST() });
});

afterAll(async () => {
  await fake?.close();
  await db?.close();
});

/** An R900 two-hour service bookable every day 08:00-18:00 without notice, with the given deposit and refund rule. */
async function newService(name: string, deposit: BookingDeposit, percent: number | null, refundUntilHours = 0) {
  const id = (await db.kysely.insertInto("products").values({ name, price: "900.00", category_id: categoryId, image_path: null }).returning("id").executeTakeFirstOrThrow()).id;
  await db.kysely
    .insertInto("bookable_services")
    .values({ product_id: id, duration_minutes: 120, notice_hours: 0, deposit, deposit_percent: percent, refund_until_hours: refundUntilHours })
    .execute();
  for (let weekday = 1; weekday <= 7; weekday++) {
    await db.kysely.insertInto("bookable_service_hours").values({ product_id: id, weekday, opens: "08:00", closes: "18:00" }).execute();
  }
  return id;
}

/** A plain R150 product (not booked by time). */
async function newGoods(name: string) {
  return (await db.kysely.insertInto("products").values({ name, price: "150.00", category_id: categoryId, image_path: null }).returning("id").executeTakeFirstOrThrow()).id;
}

function orderForm(reference: string, withProof = true) {
  const data = new FormData();
  if (withProof) data.set("proof", fileOf(makePng(), "proof.png"));
  data.set("reference", reference);
  data.set("idempotencyKey", randomUUID());
  return data;
}

function proofForm(orderId: string) {
  const data = new FormData();
  data.set("orderId", orderId);
  data.set("proof", fileOf(makePng(), "balance.png"));
  return data;
}

/** A customer who holds the service's first free time tomorrow (and adds `goods`), before checkout. */
async function customerWith(productId: string, goods: string[] = []): Promise<{ user: TestUser; caller: Caller }> {
  const user = await createUser(db, { fullName: "Lerato Dube" });
  const caller = await callerAs(db, user, { payfast: PAYFAST() });
  const [slot] = await caller.bookings.freeSlots({ productId, from: shopDay(1), days: 1 });
  await caller.cart.addBooking({ productId, startsAt: slot!.startsAt.toISOString() });
  for (const id of goods) await caller.cart.add({ productId: id });
  return { user, caller };
}

/** Books by bank transfer: the order row as SQL wrote it. */
async function bookByTransfer(caller: Caller, withProof = true) {
  const reference = (await caller.checkout.start()).reference!;
  const placed = await caller.checkout.placeOrder(orderForm(reference, withProof));
  return orderRow(placed.orderId);
}

async function orderRow(id: string) {
  return db.kysely.selectFrom("orders").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
}

async function invoicesOf(orderId: string) {
  const rows = await db.kysely.selectFrom("invoices").select(["id", "kind", "number", "total", "credits_invoice_id", "snapshot"]).where("order_id", "=", orderId).orderBy("issued_at").orderBy("serial").execute();
  return rows.map((row) => ({ ...row, snapshot: row.snapshot as { part?: string; partial?: boolean; credits?: { number: string }; depositInvoice?: { number: string }; lines: { description: string; amount: string }[] } }));
}

async function mailsOf(reference: string) {
  const rows = await db.kysely.selectFrom("mail_outbox").select(["template", "data"]).orderBy("created_at").execute();
  return rows.filter((row) => (row.data as { reference?: string }).reference === reference).map((row) => ({ template: row.template, data: row.data as Record<string, unknown> }));
}

function notify(fields: [string, string][]) {
  const log = { info: () => {}, warn: () => {}, error: () => {} };
  return receivePaymentNotification(db, shop.payments, { body: FakePayFast.body(fields), sourceAddress: "127.0.0.1" }, log);
}

async function outstanding() {
  return (await admin.overview.summary()).outstanding as { orders: number; value: string; balances: number; balancesValue: string };
}

describe("what checkout asks", () => {
  it("a percentage: the line's share to the cent, the rest a balance under its own reference", async () => {
    const service = await newService("Office clean 30%", "percent", 30);
    const goods = await newGoods("Cleaning cloths");
    const { caller } = await customerWith(service, [goods]);
    // The cart says it before checkout, from the same SQL.
    expect(await caller.cart.list()).toMatchObject({ total: 1050, dueNow: 420, later: 630 });
    const order = await bookByTransfer(caller);
    expect(order).toMatchObject({ total: "1050.00", deposit: "420.00", balance_reference: `${order.reference}-B`, status: "pending_payment", balance_paid_at: null });
    const lines = await db.kysely.selectFrom("order_items").select(["product_name", "deposit"]).where("order_id", "=", order.id).orderBy("product_name").execute();
    expect(lines).toEqual([
      { product_name: "Cleaning cloths", deposit: null },
      { product_name: "Office clean 30%", deposit: "270.00" },
    ]);
  });

  it("the full price: no deposit and no balance, the whole total now", async () => {
    const service = await newService("Consultation full", "full", null);
    const { caller } = await customerWith(service);
    expect((await caller.cart.list()).dueNow).toBeNull();
    const order = await bookByTransfer(caller);
    expect(order).toMatchObject({ total: "900.00", deposit: null, balance_reference: null, status: "pending_payment" });
  });

  it("none: nothing now and no proof asked, the booking confirmed with its whole price as the balance", async () => {
    const service = await newService("Laundry collection none", "none", null);
    const { caller } = await customerWith(service);
    expect(await caller.cart.list()).toMatchObject({ total: 900, dueNow: 0, later: 900 });
    // Nothing to take online.
    const online = await trpcRefusal(caller.payments.payNow({ reference: (await caller.checkout.start()).reference!, idempotencyKey: randomUUID() }));
    expect(online.message).toBe(b.nothingToPayOnline);
    const order = await bookByTransfer(caller, false);
    expect(order).toMatchObject({ total: "900.00", deposit: "0.00", status: "pending_delivery", proof_path: null });
    // No payment yet, so no invoice; the mail says nothing is due now and names the balance's reference.
    expect(await invoicesOf(order.id)).toEqual([]);
    const received = (await mailsOf(order.reference)).find((mail) => mail.template === "order_received");
    expect(received).toMatchObject({ template: "order_received", data: { deposit: 0, balance: 900, balanceReference: `${order.reference}-B` } });
  });

  it("still asks the proof of everything else", async () => {
    const service = await newService("Office clean no proof", "percent", 50);
    const { caller } = await customerWith(service);
    const reference = (await caller.checkout.start()).reference!;
    expect((await trpcRefusal(caller.checkout.placeOrder(orderForm(reference, false)))).message).toBe(messages.checkout.proofRequired);
    expect((await caller.cart.list()).lines).toHaveLength(1);
  });
});

describe("the balance", () => {
  it("by bank transfer: the deposit's invoice, the balance's proof, marked paid by an admin with its own invoice naming the deposit's", async () => {
    const service = await newService("Office clean transfer", "percent", 30);
    const { caller } = await customerWith(service);
    const order = await bookByTransfer(caller);
    const before = await outstanding();

    // Not before the deposit is received.
    expect((await trpcRefusal(caller.payments.attachBalanceProof(proofForm(order.id)))).message).toBe(b.balanceNotDue);
    expect((await trpcRefusal(admin.adminOrders.markBalancePaid({ orderId: order.id }))).message).toBe(b.balanceNotDue);

    await admin.adminOrders.updateStatus({ id: order.id, status: "pending_delivery" });
    const [deposit] = await invoicesOf(order.id);
    expect(deposit).toMatchObject({ kind: "invoice", total: "270.00", snapshot: { part: "deposit" } });
    expect(deposit!.snapshot.lines.map((line) => [line.description.split(" (")[0], line.amount])).toEqual([["Deposit: Office clean transfer", "270.00"]]);
    // The balance is money outstanding now: R630 more, in one more balance.
    const due = await outstanding();
    expect(due.balances).toBe(before.balances + 1);
    expect(Number(due.balancesValue) - Number(before.balancesValue)).toBeCloseTo(630, 2);

    // The order page shows it; the customer proves the transfer; another customer cannot.
    const page = await caller.orders.byReference({ reference: order.reference });
    expect(page.balance).toMatchObject({ deposit: 270, amount: 630, reference: `${order.reference}-B`, paidAt: null, proofUrl: null });
    const stranger = await callerAs(db, await createUser(db));
    expect((await trpcRefusal(stranger.payments.attachBalanceProof(proofForm(order.id)))).code).toBe("NOT_FOUND");
    expect((await caller.payments.attachBalanceProof(proofForm(order.id))).message).toBe(b.balanceProofUploaded(`${order.reference}-B`));
    expect((await trpcRefusal(caller.payments.attachBalanceProof(proofForm(order.id)))).message).toBe(b.balanceNotDue);
    expect((await caller.orders.byReference({ reference: order.reference })).balance?.proofUrl).toEqual(expect.any(String));

    expect((await admin.adminOrders.markBalancePaid({ orderId: order.id })).message).toBe(b.balanceMarked(order.reference));
    const invoices = await invoicesOf(order.id);
    expect(invoices.map((invoice) => [invoice.kind, invoice.total, invoice.snapshot.part])).toEqual([
      ["invoice", "270.00", "deposit"],
      ["invoice", "630.00", "balance"],
    ]);
    expect(invoices[1]!.snapshot.depositInvoice?.number).toBe(deposit!.number);
    expect(invoices[1]!.snapshot.lines[0]!.description).toMatch(/^Balance: Office clean transfer/);
    expect((await orderRow(order.id)).balance_paid_at).not.toBeNull();
    expect((await mailsOf(order.reference)).filter((mail) => mail.template === "payment_received").at(-1)).toMatchObject({
      data: { amount: 630, part: "balance", provider: "bank transfer" },
    });
    // Once only; and no longer outstanding.
    expect((await trpcRefusal(admin.adminOrders.markBalancePaid({ orderId: order.id }))).message).toBe(b.balanceNotDue);
    const after = await outstanding();
    expect(after.balances).toBe(before.balances);
  });

  it("online: the deposit by Pay now, then the balance by PayFast under the balance's reference, each its own payment and invoice", async () => {
    const service = await newService("Consultation online", "percent", 25);
    const { caller } = await customerWith(service);
    const reference = (await caller.checkout.start()).reference!;
    const started = await caller.payments.payNow({ reference, idempotencyKey: randomUUID() });
    const depositForm = Object.fromEntries(started.fields);
    expect(depositForm).toMatchObject({ amount: "225.00", custom_str1: reference });
    // The balance cannot be paid before the deposit.
    expect((await trpcRefusal(caller.payments.payBalance({ orderId: started.orderId }))).message).toBe(b.balanceNotDue);
    expect(await notify(fake.itnFor(depositForm))).toEqual({ status: 200, outcome: "applied" });
    expect(await orderRow(started.orderId)).toMatchObject({ status: "pending_delivery", deposit: "225.00", balance_paid_at: null });

    const balanceForm = Object.fromEntries((await caller.payments.payBalance({ orderId: started.orderId })).fields);
    expect(balanceForm).toMatchObject({ amount: "675.00", custom_str1: `${reference}-B`, m_payment_id: started.orderId });
    expect(balanceForm.return_url).toMatch(new RegExp(`/profile/orders/${reference}$`));
    // The wrong amount for the balance's reference is refused, changing nothing.
    expect((await notify(fake.itnFor(balanceForm, { amountGross: "225.00" }))).status).toBe(400);
    expect((await orderRow(started.orderId)).balance_paid_at).toBeNull();
    const itn = fake.itnFor(balanceForm);
    expect(await notify(itn)).toEqual({ status: 200, outcome: "applied" });
    expect(await notify(itn)).toEqual({ status: 200, outcome: "duplicate" });

    expect(await orderRow(started.orderId)).toMatchObject({ balance_payment_method: "payfast", status: "pending_delivery" });
    const payments = await db.kysely.selectFrom("payments").select(["amount", "part", "outcome"]).where("order_id", "=", started.orderId).orderBy("received_at").execute();
    expect(payments).toEqual([
      { amount: "225.00", part: "order", outcome: "applied" },
      { amount: "675.00", part: "balance", outcome: "applied" },
    ]);
    const invoices = await invoicesOf(started.orderId);
    expect(invoices.map((invoice) => [invoice.total, invoice.snapshot.part])).toEqual([
      ["225.00", "deposit"],
      ["675.00", "balance"],
    ]);
    expect(invoices[1]!.snapshot.depositInvoice?.number).toBe(invoices[0]!.number);
    expect((await trpcRefusal(caller.payments.payBalance({ orderId: started.orderId }))).message).toBe(b.balanceNotDue);
  });
});

describe("cancelling", () => {
  it("within the refund rule credits the deposit", async () => {
    const service = await newService("Office clean refundable", "percent", 30, 0);
    const { caller } = await customerWith(service);
    const order = await bookByTransfer(caller);
    await admin.adminOrders.updateStatus({ id: order.id, status: "pending_delivery" });
    await admin.adminOrders.updateStatus({ id: order.id, status: "cancelled" });
    const [deposit, credit] = await invoicesOf(order.id);
    expect(credit).toMatchObject({ kind: "credit_note", total: "270.00", credits_invoice_id: deposit!.id, snapshot: { part: "deposit" } });
    // No longer outstanding either.
    expect((await caller.orders.byReference({ reference: order.reference })).status).toBe("cancelled");
  });

  it("after the refund rule keeps the deposit (no credit note for it) but credits a balance paid", async () => {
    // Refunded until 48 hours before; the booking is tomorrow, so that is past.
    const service = await newService("Office clean kept", "percent", 30, 48);
    const { caller } = await customerWith(service);
    const order = await bookByTransfer(caller);
    await admin.adminOrders.updateStatus({ id: order.id, status: "pending_delivery" });
    await admin.adminOrders.markBalancePaid({ orderId: order.id });
    await admin.adminOrders.updateStatus({ id: order.id, status: "cancelled" });
    const invoices = await invoicesOf(order.id);
    expect(invoices.map((invoice) => [invoice.kind, invoice.total, invoice.snapshot.part])).toEqual([
      ["invoice", "270.00", "deposit"],
      ["invoice", "630.00", "balance"],
      ["credit_note", "630.00", "balance"],
    ]);
  });

  it("an order without bookings is credited as before", async () => {
    const goods = await newGoods("Polish");
    const user = await createUser(db);
    const caller = await callerAs(db, user);
    await caller.cart.add({ productId: goods });
    const order = await bookByTransfer(caller);
    await admin.adminOrders.updateStatus({ id: order.id, status: "pending_delivery" });
    await admin.adminOrders.updateStatus({ id: order.id, status: "cancelled" });
    expect((await invoicesOf(order.id)).map((invoice) => [invoice.kind, invoice.total, invoice.snapshot.part])).toEqual([
      ["invoice", "150.00", undefined],
      ["credit_note", "150.00", undefined],
    ]);
  });
});

describe("cancelling one booking of an order that goes on", () => {
  /** The customer's booking of `productId` in `orderId`. */
  async function bookingOf(orderId: string, productId: string) {
    return db.kysely.selectFrom("bookings").select(["id", "order_item_id"]).where("order_id", "=", orderId).where("product_id", "=", productId).executeTakeFirstOrThrow();
  }

  async function creditNotes(orderId: string) {
    return (await invoicesOf(orderId)).filter((invoice) => invoice.kind === "credit_note");
  }

  it("within the refund rule: the paid deposit of that line is credited alone, and the order no longer asks its balance", async () => {
    const service = await newService("Office clean one of two", "percent", 30, 0);
    const goods = await newGoods("Mop heads");
    const { caller } = await customerWith(service, [goods]);
    const order = await bookByTransfer(caller);
    expect(order).toMatchObject({ total: "1050.00", deposit: "420.00" });
    await admin.adminOrders.updateStatus({ id: order.id, status: "pending_delivery" });
    const before = await outstanding();
    const [deposit] = await invoicesOf(order.id);
    expect(deposit).toMatchObject({ total: "420.00", snapshot: { part: "deposit" } });

    const booking = await bookingOf(order.id, service);
    await caller.bookings.cancel({ bookingId: booking.id });

    // One credit note, for the line's deposit on the deposit's invoice, naming the line.
    const [credit, ...more] = await creditNotes(order.id);
    expect(more).toEqual([]);
    expect(credit).toMatchObject({ total: "270.00", credits_invoice_id: deposit!.id, snapshot: { partial: true, credits: { number: deposit!.number } } });
    expect(credit!.snapshot.lines.map((line) => [line.description.split(" (")[0], line.amount])).toEqual([["Deposit: Office clean one of two", "270.00"]]);
    expect(await db.kysely.selectFrom("invoices").select("credits_item_id").where("id", "=", credit!.id).executeTakeFirstOrThrow()).toEqual({ credits_item_id: booking.order_item_id });
    const pdf = await pdfText((await caller.invoices.download({ id: credit!.id })).pdf);
    expect(pdf).toContain(`This credit note credits the lines above of invoice ${deposit!.number}.`);

    // The order goes on, for the mop heads: paid in full, nothing more due.
    const after = await orderRow(order.id);
    expect(after).toMatchObject({ status: "pending_delivery", total: "150.00", deposit: null, balance_reference: null });
    const page = await caller.orders.byReference({ reference: order.reference });
    expect(page.balance).toBeNull();
    expect(page.items.filter((item) => !item.cancelled).map((item) => item.name)).toEqual(["Mop heads"]);
    expect(page.items.find((item) => item.cancelled)).toMatchObject({ name: expect.stringContaining("Office clean one of two"), kept: 0, bookingId: null });
    const due = await outstanding();
    expect(due.balances).toBe(before.balances - 1);
    expect(Number(before.balancesValue) - Number(due.balancesValue)).toBeCloseTo(630, 2);

    // Cancelling the order now credits what is left of the deposit's invoice: the mop heads.
    await admin.adminOrders.updateStatus({ id: order.id, status: "cancelled" });
    const notes = await creditNotes(order.id);
    expect(notes.map((note) => note.total)).toEqual(["270.00", "150.00"]);
    expect(notes[1]!.snapshot.lines.map((line) => line.description)).toEqual(["Mop heads"]);
  });

  it("past the refund rule: the deposit is kept, a balance paid is credited, and cancelling the order later never credits what was kept", async () => {
    // Refunded until 48 hours before; the booking is tomorrow, so that is past.
    const service = await newService("Office clean kept one", "percent", 30, 48);
    const goods = await newGoods("Buckets");
    const { caller } = await customerWith(service, [goods]);
    const order = await bookByTransfer(caller);
    await admin.adminOrders.updateStatus({ id: order.id, status: "pending_delivery" });
    await admin.adminOrders.markBalancePaid({ orderId: order.id });
    const [deposit, balance] = await invoicesOf(order.id);
    expect([deposit!.total, balance!.total]).toEqual(["420.00", "630.00"]);

    const booking = await bookingOf(order.id, service);
    await admin.bookings.cancel({ bookingId: booking.id });
    const [credit, ...more] = await creditNotes(order.id);
    expect(more).toEqual([]);
    expect(credit).toMatchObject({ total: "630.00", credits_invoice_id: balance!.id });
    expect(credit!.snapshot.lines[0]!.description).toMatch(/^Balance: Office clean kept one/);
    // R270 kept: the order is the buckets and the kept deposit.
    expect(await orderRow(order.id)).toMatchObject({ total: "420.00", deposit: null });
    expect(await db.kysely.selectFrom("order_items").select(["kept"]).where("id", "=", booking.order_item_id).executeTakeFirstOrThrow()).toEqual({ kept: "270.00" });
    expect((await caller.orders.byReference({ reference: order.reference })).items.find((item) => item.cancelled)?.kept).toBe(270);

    await admin.adminOrders.updateStatus({ id: order.id, status: "cancelled" });
    expect((await creditNotes(order.id)).map((note) => [note.total, note.snapshot.lines.map((line) => line.description)])).toEqual([
      ["630.00", [expect.stringMatching(/^Balance: Office clean kept one/)]],
      ["150.00", ["Buckets"]],
    ]);
  });

  it("before anything is paid: no credit note, the order asks less, and its invoices later leave the line out", async () => {
    const first = await newService("Window clean first", "percent", 30, 0);
    const second = await newService("Carpet clean second", "percent", 30, 0);
    const { caller } = await customerWith(first);
    const [slot] = await caller.bookings.freeSlots({ productId: second, from: shopDay(1), days: 1 });
    await caller.cart.addBooking({ productId: second, startsAt: slot!.startsAt.toISOString() });
    const order = await bookByTransfer(caller);
    expect(order).toMatchObject({ total: "1800.00", deposit: "540.00" });

    await caller.bookings.cancel({ bookingId: (await bookingOf(order.id, first)).id });
    expect(await orderRow(order.id)).toMatchObject({ status: "pending_payment", total: "900.00", deposit: "270.00", balance_reference: `${order.reference}-B` });
    expect(await invoicesOf(order.id)).toEqual([]);

    await admin.adminOrders.updateStatus({ id: order.id, status: "pending_delivery" });
    await admin.adminOrders.markBalancePaid({ orderId: order.id });
    expect((await invoicesOf(order.id)).map((invoice) => [invoice.total, invoice.snapshot.lines.map((line) => line.description.split(" (")[0])])).toEqual([
      ["270.00", ["Deposit: Carpet clean second"]],
      ["630.00", ["Balance: Carpet clean second"]],
    ]);
    // Within the refund rule, the remaining booking's cancellation cancels the order and credits both in full.
    await caller.bookings.cancel({ bookingId: (await bookingOf(order.id, second)).id });
    expect((await orderRow(order.id)).status).toBe("cancelled");
    expect((await creditNotes(order.id)).map((note) => [note.total, note.snapshot.partial])).toEqual([
      ["270.00", undefined],
      ["630.00", undefined],
    ]);
  });
});

describe("in SQL", () => {
  it("refuses a balance paid by anyone but an admin, and a wrong amount for the balance's reference", async () => {
    const service = await newService("Office clean sql", "percent", 30);
    const { user, caller } = await customerWith(service);
    const order = await bookByTransfer(caller);
    await admin.adminOrders.updateStatus({ id: order.id, status: "pending_delivery" });
    await expect(runAs(db.kysely, user.identity, (trx) => sql`select public.mark_balance_paid(${order.id}::uuid)`.execute(trx))).rejects.toThrow(/admins_only/);
    await expect(
      sql`select public.record_online_payment('payfast', ${randomUUID()}, ${order.id}::uuid, 270.00, '{}'::jsonb, ${`${order.reference}-B`})`.execute(db.kysely),
    ).rejects.toThrow(/amount_mismatch/);
    expect((await orderRow(order.id)).balance_paid_at).toBeNull();
  });
});
