import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { messages } from "@/lib/messages";
import { receivePaymentNotification } from "@/server/payments/notification";
import type { ShopProcess } from "@/server/platform/shop-process";
import { trpcRefusal } from "../helpers/attempt";
import { callerAs, testShopProcess, type Caller } from "../helpers/browser";
import { createUser, freshDatabase, type TestDatabase, type TestUser } from "../helpers/database";
import { FakePayFast, referenceCheckoutSignature, SANDBOX_MERCHANT } from "../helpers/fake-payfast";
import { fileOf, makePng } from "../helpers/images";

/**
 * "Pay now" through PayFast (docs/architecture.md#payments), against a fake PayFast that speaks the documented
 * protocol: the signed checkout form, the ITN and its four checks in order, each refusal changing
 * nothing, and a payment applied exactly once however often it is notified.
 */

const m = messages.payments;
let db: TestDatabase;
let fake: FakePayFast;
let shop: ShopProcess;
let productIds: string[];
const PAYFAST = () => ({ url: fake.url, itnSources: ["127.0.0.1/32", "::1"] });
const PAYFAST_ADDRESS = "127.0.0.1";

beforeAll(async () => {
  db = await freshDatabase();
  fake = await FakePayFast.start();
  productIds = (await db.kysely.selectFrom("products").select("id").orderBy("created_at").execute()).map((p) => p.id);
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

beforeEach(() => {
  fake.validateAnswer = null;
});

/** The notification as the route hands it to the domain, from `address`. */
function notify(fields: [string, string][], address = PAYFAST_ADDRESS) {
  const log = { info: () => {}, warn: () => {}, error: () => {} };
  return receivePaymentNotification(db, shop.payments, { body: FakePayFast.body(fields), sourceAddress: address }, log);
}

async function orderRow(id: string) {
  return db.kysely.selectFrom("orders").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
}

async function paymentsOf(orderId: string) {
  return db.kysely.selectFrom("payments").selectAll().where("order_id", "=", orderId).execute();
}

async function mailsAbout(reference: string) {
  const rows = await db.kysely.selectFrom("mail_outbox").select(["template", "recipient", "data"]).orderBy("created_at").execute();
  return rows.filter((row) => (row.data as { reference?: string }).reference === reference).map((row) => row.template);
}

async function historyOf(orderId: string) {
  return db.kysely.selectFrom("order_status_events").select(["from_status", "to_status", "reason", "changed_by"]).where("order_id", "=", orderId).orderBy("changed_at").orderBy("id").execute();
}

/** A customer with two products in the cart who pressed "Pay now": their order and PayFast's form. */
async function payingCustomer(): Promise<{ customer: TestUser; caller: Caller; form: Record<string, string>; fields: [string, string][]; orderId: string; reference: string }> {
  const customer = await createUser(db, { fullName: "Thandi Mokoena-O'Neil" });
  const caller = await callerAs(db, customer, { payfast: PAYFAST() });
  await caller.cart.add({ productId: productIds[0]! });
  await caller.cart.add({ productId: productIds[1]! });
  const reference = (await caller.checkout.start()).reference!;
  const payment = await caller.payments.payNow({ reference, idempotencyKey: randomUUID() });
  return { customer, caller, form: Object.fromEntries(payment.fields), fields: payment.fields, orderId: payment.orderId, reference };
}

describe("Pay now", () => {
  it("places the order as every order (pending payment, no proof, reference closed, cart emptied) and gives PayFast's signed form", async () => {
    const { caller, form, fields, orderId, reference } = await payingCustomer();
    const order = await orderRow(orderId);
    expect(order).toMatchObject({ status: "pending_payment", proof_path: null, payment_method: "payfast", reference });
    expect(await caller.cart.list()).toMatchObject({ lines: [] });
    // The documented order, blanks left out, and the signature PayFast computes.
    expect(fields.map(([name]) => name)).toEqual([
      "merchant_id", "merchant_key", "return_url", "cancel_url", "notify_url", "name_first", "name_last", "email_address",
      "m_payment_id", "amount", "item_name", "custom_str1", "signature",
    ]);
    expect(form).toMatchObject({
      merchant_id: SANDBOX_MERCHANT.merchantId,
      m_payment_id: orderId,
      amount: Number(order.total).toFixed(2),
      custom_str1: reference,
      name_first: "Thandi",
      name_last: "Mokoena-O'Neil",
      notify_url: "http://localhost:3000/api/payments/payfast/notify",
      return_url: `http://localhost:3000/checkout/return?order=${orderId}`,
      cancel_url: `http://localhost:3000/checkout/cancelled?order=${orderId}`,
    });
    expect(form.signature).toBe(referenceCheckoutSignature(form, SANDBOX_MERCHANT.passphrase));
    // The passphrase never leaves the server.
    expect(JSON.stringify(fields)).not.toContain(SANDBOX_MERCHANT.passphrase);
    // The order's mails say it is being paid online.
    const mails = await db.kysely.selectFrom("mail_outbox").select(["template", "data"]).execute();
    const received = mails.find((mail) => mail.template === "order_received" && (mail.data as { reference: string }).reference === reference);
    expect(received?.data).toMatchObject({ paymentMethod: "payfast", proofUploaded: false });
  });

  it("a retry with the same key gives the same order's form; an empty cart or a signed-out visitor gets nothing", async () => {
    const customer = await createUser(db);
    const caller = await callerAs(db, customer, { payfast: PAYFAST() });
    await caller.cart.add({ productId: productIds[2]! });
    const reference = (await caller.checkout.start()).reference!;
    const idempotencyKey = randomUUID();
    const [first, second] = await Promise.all([caller.payments.payNow({ reference, idempotencyKey }), caller.payments.payNow({ reference, idempotencyKey })]);
    expect(second.orderId).toBe(first.orderId);
    expect(await db.kysely.selectFrom("orders").select("id").where("user_id", "=", customer.id).execute()).toHaveLength(1);
    expect((await trpcRefusal(caller.payments.payNow({ reference, idempotencyKey: randomUUID() }))).message).toBe(messages.checkout.cartEmptyOrSignedOut);
    const visitor = await callerAs(db, null, { payfast: PAYFAST() });
    expect((await trpcRefusal(visitor.payments.payNow({ reference, idempotencyKey: randomUUID() }))).code).toBe("UNAUTHORIZED");
  });

  it("checkout offers Pay now only while PayFast is set up", async () => {
    const customer = await createUser(db);
    const caller = await callerAs(db, customer, { payfast: PAYFAST() });
    expect((await caller.checkout.start()).payNow).toBe(true);
    await db.kysely.updateTable("payment_settings").set({ payfast_merchant_id: "" }).execute();
    shop.payments.settings.changed();
    try {
      const later = await callerAs(db, customer, { payfast: PAYFAST() });
      expect((await later.checkout.start()).payNow).toBe(false);
      await later.cart.add({ productId: productIds[0]! });
      const reference = (await later.checkout.start()).reference!;
      expect((await trpcRefusal(later.payments.payNow({ reference, idempotencyKey: randomUUID() }))).message).toBe(m.unavailable);
    } finally {
      await db.kysely.updateTable("payment_settings").set({ payfast_merchant_id: SANDBOX_MERCHANT.merchantId }).execute();
      shop.payments.settings.changed();
    }
  });
});

describe("a valid ITN", () => {
  it("pays the order once: a payment row, pending delivery with 'Paid by PayFast' in its history, and one mail pair", async () => {
    const { form, orderId, reference, caller } = await payingCustomer();
    const before = await mailsAbout(reference);
    const result = await notify(fake.itnFor(form, { pfPaymentId: "1234567" }));
    expect(result).toEqual({ status: 200, outcome: "applied" });
    expect(await orderRow(orderId)).toMatchObject({ status: "pending_delivery", payment_method: "payfast" });
    const [payment, ...more] = await paymentsOf(orderId);
    expect(more).toEqual([]);
    expect(payment).toMatchObject({ provider: "payfast", provider_payment_id: "1234567", outcome: "applied", amount: (await orderRow(orderId)).total });
    expect(payment!.details).not.toHaveProperty("signature");
    expect((await historyOf(orderId)).at(-1)).toMatchObject({ from_status: "pending_payment", to_status: "pending_delivery", reason: "Paid by PayFast", changed_by: null });
    expect((await mailsAbout(reference)).slice(before.length).sort()).toEqual(["payment_notice", "payment_received"]);
    // Paid, so the database issued its invoice in the same transaction (docs/architecture.md#invoices).
    expect(await db.kysely.selectFrom("invoices").select("kind").where("order_id", "=", orderId).execute()).toEqual([{ kind: "invoice" }]);
    // The customer's purchase history says so.
    const [mine] = (await caller.orders.mine()).filter((order) => order.id === orderId);
    expect(mine?.payments).toMatchObject([{ provider: "PayFast", providerPaymentId: "1234567", outcome: "applied" }]);
  });

  it("20 concurrent copies change the order once, write one payment row and one mail pair", async () => {
    const { form, orderId, reference } = await payingCustomer();
    const before = await mailsAbout(reference);
    const itn = fake.itnFor(form);
    const results = await Promise.all(Array.from({ length: 20 }, () => notify(itn)));
    expect(results.every((result) => result.status === 200)).toBe(true);
    expect(results.filter((result) => result.status === 200 && result.outcome === "applied")).toHaveLength(1);
    expect(await paymentsOf(orderId)).toHaveLength(1);
    expect((await historyOf(orderId)).filter((event) => event.to_status === "pending_delivery")).toHaveLength(1);
    expect((await mailsAbout(reference)).slice(before.length).sort()).toEqual(["payment_notice", "payment_received"]);
  });

  it("for a cancelled order is recorded as a refund due, shown to admins, and the order stays cancelled", async () => {
    const { form, orderId, reference } = await payingCustomer();
    await db.kysely.updateTable("orders").set({ status: "cancelled" }).where("id", "=", orderId).execute();
    expect(await notify(fake.itnFor(form))).toEqual({ status: 200, outcome: "refund_due" });
    expect(await orderRow(orderId)).toMatchObject({ status: "cancelled" });
    expect(await paymentsOf(orderId)).toMatchObject([{ outcome: "refund_due" }]);
    const admin = await callerAs(db, await createUser(db, { role: "admin" }), { payfast: PAYFAST() });
    const { orders } = await admin.adminOrders.list({ search: reference });
    expect(orders[0]?.payments).toMatchObject([{ outcome: "refund_due", provider: "PayFast" }]);
  });

  it("that says the payment is not complete changes nothing", async () => {
    const { form, orderId } = await payingCustomer();
    expect(await notify(fake.itnFor(form, { paymentStatus: "CANCELLED" }))).toEqual({ status: 200, outcome: "not_complete" });
    expect(await orderRow(orderId)).toMatchObject({ status: "pending_payment" });
    expect(await paymentsOf(orderId)).toEqual([]);
  });
});

describe("an ITN is refused, changing nothing, when", () => {
  async function expectRefused(fields: (form: Record<string, string>) => [string, string][], expected: RegExp, address = PAYFAST_ADDRESS, status = 400) {
    const { form, orderId, reference } = await payingCustomer();
    const mailsBefore = await mailsAbout(reference);
    const historyBefore = await historyOf(orderId);
    const result = await notify(fields(form), address);
    expect(result.status).toBe(status);
    expect(result.status !== 200 && result.reason).toMatch(expected);
    expect(await orderRow(orderId)).toMatchObject({ status: "pending_payment" });
    expect(await paymentsOf(orderId)).toEqual([]);
    expect(await historyOf(orderId)).toEqual(historyBefore);
    expect(await mailsAbout(reference)).toEqual(mailsBefore);
  }

  it("a field was changed after signing", () => expectRefused((form) => fake.itnFor(form, { tamper: { amount_gross: "1.00" } }), /signature/));
  it("it was signed with another passphrase", () => expectRefused((form) => fake.itnFor(form, { passphrase: "not the merchant's" }), /signature/));
  it("it was signed with no passphrase", () => expectRefused((form) => fake.itnFor(form, { passphrase: "" }), /signature/));
  it("the amount is one cent off (signed)", () =>
    expectRefused((form) => fake.itnFor(form, { amountGross: (Number(form.amount) - 0.01).toFixed(2) }), /amount .* is not order ORD-\d+'s total/));
  it("it comes from an address that is not PayFast's", () => expectRefused((form) => fake.itnFor(form), /sender 198\.51\.100\.7 is not one of PayFast's/, "198.51.100.7"));
  it("PayFast's validate answers INVALID", () => {
    fake.validateAnswer = "INVALID";
    return expectRefused((form) => fake.itnFor(form), /validate answered "INVALID"/);
  });
  it("it names an unknown order", () => expectRefused((form) => fake.itnFor({ ...form, m_payment_id: randomUUID() }), /unknown order/));
  it("it names another order's reference", () => expectRefused((form) => fake.itnFor({ ...form, custom_str1: "ORD-1" }), /reference "ORD-1" is not order/));
  it("PayFast's validate cannot be reached (answered 503: PayFast sends it again)", async () => {
    const saved = fake.url;
    const unreachable = await testShopProcess(db, { payfast: { url: "http://127.0.0.1:9", itnSources: ["127.0.0.1"] } });
    const { form, orderId } = await payingCustomer();
    const log = { info: () => {}, warn: () => {}, error: () => {} };
    const result = await receivePaymentNotification(db, unreachable.payments, { body: FakePayFast.body(fake.itnFor(form)), sourceAddress: "127.0.0.1" }, log);
    expect(result.status).toBe(503);
    expect(await paymentsOf(orderId)).toEqual([]);
    expect(fake.url).toBe(saved);
  });
});

describe("paying again, or by bank transfer instead", () => {
  it("a cancelled payment leaves the order payable: the form again, or a proof that makes it a bank transfer", async () => {
    const { caller, orderId, reference } = await payingCustomer();
    const again = await caller.payments.payAgain({ orderId });
    expect(Object.fromEntries(again.fields)).toMatchObject({ m_payment_id: orderId, custom_str1: reference });
    expect(await caller.payments.order({ orderId })).toMatchObject({ reference, status: "pending_payment", payable: true });
    const form = new FormData();
    form.set("orderId", orderId);
    form.set("proof", fileOf(makePng(), "proof.png"));
    expect(await caller.payments.attachProof(form)).toEqual({ message: m.proofAttached(reference), reference });
    expect(await orderRow(orderId)).toMatchObject({ payment_method: "bank_transfer", status: "pending_payment" });
    expect((await orderRow(orderId)).proof_path).toMatch(/\.png$/);
    // Now it waits for the admins' check, not for PayFast.
    expect((await trpcRefusal(caller.payments.payAgain({ orderId }))).message).toBe(m.notPayable);
    expect((await trpcRefusal(caller.payments.attachProof(form))).message).toBe(m.notPayable);
  });

  it("nobody pays for, reads or attaches a proof to another customer's order", async () => {
    const { orderId } = await payingCustomer();
    const other = await callerAs(db, await createUser(db), { payfast: PAYFAST() });
    expect((await trpcRefusal(other.payments.payAgain({ orderId }))).message).toBe(m.notPayable);
    expect((await trpcRefusal(other.payments.order({ orderId }))).code).toBe("NOT_FOUND");
    const form = new FormData();
    form.set("orderId", orderId);
    form.set("proof", fileOf(makePng(), "proof.png"));
    expect((await trpcRefusal(other.payments.attachProof(form))).message).toBe(m.notPayable);
    expect(await orderRow(orderId)).toMatchObject({ proof_path: null });
  });
});

describe("payment settings", () => {
  it("admins see the merchant id and whether the secrets are set, never the secrets; a blank secret keeps the saved one", async () => {
    const admin = await callerAs(db, await createUser(db, { role: "admin" }), { payfast: PAYFAST() });
    const view = await admin.payments.settings();
    expect(view).toEqual({ merchantId: SANDBOX_MERCHANT.merchantId, sandbox: true, hasMerchantKey: true, hasPassphrase: true });
    expect(JSON.stringify(view)).not.toContain(SANDBOX_MERCHANT.merchantKey);
    const saved = await admin.payments.updateSettings({ merchantId: SANDBOX_MERCHANT.merchantId, merchantKey: "", passphrase: "", clearPassphrase: false, sandbox: true });
    expect(saved.values).toEqual(view);
    const row = await db.kysely.selectFrom("payment_settings").selectAll().executeTakeFirstOrThrow();
    expect(row).toMatchObject({ payfast_merchant_key: SANDBOX_MERCHANT.merchantKey, payfast_passphrase: SANDBOX_MERCHANT.passphrase });
    expect((await trpcRefusal(admin.payments.updateSettings({ merchantId: "12ab", merchantKey: "", passphrase: "", clearPassphrase: false, sandbox: true }))).message).toContain(
      m.merchantIdInvalid,
    );
  });

  it("customers and visitors cannot read or change them", async () => {
    const customer = await callerAs(db, await createUser(db), { payfast: PAYFAST() });
    expect((await trpcRefusal(customer.payments.settings())).code).toBe("FORBIDDEN");
    expect((await trpcRefusal(customer.payments.updateSettings({ merchantId: "1", merchantKey: "a", passphrase: "", clearPassphrase: false, sandbox: false }))).code).toBe("FORBIDDEN");
    const visitor = await callerAs(db, null, { payfast: PAYFAST() });
    expect((await trpcRefusal(visitor.payments.settings())).code).toBe("UNAUTHORIZED");
  });
});
