import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { formatRand } from "@/lib/money";
import { messages } from "@/lib/messages";
import { shopSettingsFor, type ShopSettings } from "@/server/settings/shop-settings";
import { runAs } from "@/server/db/as-caller";
import { outboxMessageId } from "@/server/mail/message-id";
import { BATCH, deliverDue, drainOutbox, MAX_ATTEMPTS, type DeliveryDeps } from "@/server/mail/outbox";
import { mailShopFrom, siteUrl } from "@/server/mail/shop";
import { cancelUnpaidOrders } from "@/server/orders/order-queries";
import { createSmtpTransport } from "@/server/platform/adapters/mail/smtp-transport";
import { saveSettings } from "@/server/settings/settings-queries";
import { trpcRefusal } from "../helpers/attempt";
import { callerAs, type Caller } from "../helpers/browser";
import { createUser, freshDatabase, type TestDatabase, type TestUser } from "../helpers/database";
import { fileOf, makePng } from "../helpers/images";
import { configuredShopSettings, CONFIGURED_BANK } from "../helpers/shop-settings";
import { startTestSmtp, type TestSmtp } from "../helpers/smtp";

/**
 * The transactional outbox (docs/architecture.md#mail-outbox), delivered to a real SMTP server on loopback:
 * every event writes its mails in its own transaction, the worker sends them, retries while the
 * server refuses or is away, gives up after 10 tries, and never loses one.
 */
let db: TestDatabase;
let smtp: TestSmtp;
let settings: ShopSettings;
let admin: TestUser;
let productId: string;
const ORDERS_INBOX = "orders@ourworld.test";
const SHOP_INBOX = "hello@ourworld.test";

function deps(url = smtp.url): DeliveryDeps {
  return { db: db.kysely, transport: createSmtpTransport(url), shop: async () => mailShopFrom(await settings.published()) };
}

beforeAll(async () => {
  db = await freshDatabase();
  smtp = await startTestSmtp();
  admin = await createUser(db, { role: "admin", fullName: "Shop Owner" });
  await runAs(db.kysely, admin.identity, (trx) => saveSettings(trx, { ...configuredShopSettings(), email: SHOP_INBOX, ordersEmail: ORDERS_INBOX }));
  settings = await shopSettingsFor(db);
  settings.changed();
  productId = (await db.kysely.selectFrom("products").select("id").where("available", "=", true).limit(1).executeTakeFirstOrThrow()).id;
});

afterAll(async () => {
  await smtp?.close();
  await db?.close();
});

beforeEach(async () => {
  // Each test starts with an empty outbox and inbox.
  await drainOutbox(deps());
  await db.kysely.deleteFrom("mail_outbox").where("id", "is not", null).execute();
  smtp.received.length = 0;
  smtp.mode = "accept";
});

async function customerWithCart(name = "Thandi Nkosi"): Promise<{ customer: TestUser; caller: Caller }> {
  const customer = await createUser(db, { fullName: name });
  const caller = await callerAs(db, customer);
  await caller.cart.add({ productId });
  await caller.cart.add({ productId });
  return { customer, caller };
}

function paymentForm(reference: string, idempotencyKey: string = randomUUID()) {
  const form = new FormData();
  form.set("proof", fileOf(makePng(8, 8), "proof.png"));
  form.set("reference", reference);
  form.set("idempotencyKey", idempotencyKey);
  return form;
}

async function placeOrder(caller: Caller) {
  const { reference } = await caller.checkout.start();
  return caller.checkout.placeOrder(paymentForm(reference!));
}

const outbox = () => db.kysely.selectFrom("mail_outbox").selectAll().orderBy("created_at").execute();

describe("the order mails", () => {
  it("tell the customer (items, total, bank details, reference) and the shop (customer, total, link), once delivered", async () => {
    const { customer, caller } = await customerWithCart();
    const placed = await placeOrder(caller);
    const rows = await outbox();
    expect(rows.map((row) => [row.template, row.recipient])).toEqual([
      ["order_received", customer.email],
      ["new_order", ORDERS_INBOX],
    ]);
    expect(smtp.received).toEqual([]);

    expect(await deliverDue(deps())).toMatchObject({ sent: 2, failed: 0, retrying: 0 });
    const order = await db.kysely.selectFrom("orders").select(["total"]).where("reference", "=", placed.reference).executeTakeFirstOrThrow();
    const total = formatRand(Number(order.total));

    const toCustomer = smtp.received.find((mail) => mail.rcptTo.includes(customer.email))!;
    expect(toCustomer.subject).toContain(placed.reference);
    for (const part of [toCustomer.text, toCustomer.html]) {
      expect(part).toContain(placed.reference);
      expect(part).toContain(total);
      expect(part).toContain(CONFIGURED_BANK.bankAccountNumber);
      expect(part).toContain(CONFIGURED_BANK.bankBranchCode);
    }
    expect(toCustomer.messageId).toBe(outboxMessageId(rows[0]!.id, siteUrl()));

    const toShop = smtp.received.find((mail) => mail.rcptTo.includes(ORDERS_INBOX))!;
    expect(toShop.text).toContain("Thandi Nkosi");
    expect(toShop.text).toContain(total);
    expect(toShop.html).toContain(`/admin/orders?q=${placed.reference}`);
    expect((await outbox()).every((row) => row.sent_at !== null)).toBe(true);
  });

  it("tell the customer of a status change in the customer's words", async () => {
    const { customer, caller } = await customerWithCart();
    const placed = await placeOrder(caller);
    await (await callerAs(db, admin)).adminOrders.updateStatus({ id: placed.orderId, status: "pending_delivery" });
    await drainOutbox(deps());
    const mail = smtp.received.find((each) => each.rcptTo.includes(customer.email) && each.text.includes("Pending Delivery"));
    expect(mail?.subject).toContain(placed.reference);
  });

  it("tell the customer when the shop cancels an order that was not paid in time", async () => {
    const { customer, caller } = await customerWithCart();
    const placed = await placeOrder(caller);
    await db.kysely.updateTable("orders").set({ created_at: new Date(Date.now() - 30 * 86_400_000) }).where("id", "=", placed.orderId).execute();
    await runAs(db.kysely, admin.identity, (trx) => cancelUnpaidOrders(trx, 7));
    expect((await outbox()).filter((row) => row.recipient === customer.email).map((row) => row.template)).toEqual(["order_received", "order_cancelled_unpaid"]);
    await drainOutbox(deps());
    expect(smtp.received.some((mail) => mail.rcptTo.includes(customer.email) && mail.text.includes("7 days"))).toBe(true);
  });

  it("send none for an order that was not placed", async () => {
    const { caller } = await customerWithCart();
    const [line] = (await caller.cart.list()).lines;
    await caller.cart.remove({ lineId: line!.id });
    const { reference } = await caller.checkout.start();
    await trpcRefusal(caller.checkout.placeOrder(paymentForm(reference ?? "ORD-1")));
    expect(await outbox()).toEqual([]);
  });

  it("50 parallel checkouts of one cart make one order, one customer mail and one shop mail", async () => {
    const { customer, caller } = await customerWithCart();
    const { reference } = await caller.checkout.start();
    const results = await Promise.allSettled(Array.from({ length: 50 }, () => caller.checkout.placeOrder(paymentForm(reference!))));
    expect(results.some((result) => result.status === "fulfilled")).toBe(true);
    expect(await db.kysely.selectFrom("orders").select("id").where("user_id", "=", customer.id).execute()).toHaveLength(1);
    expect((await outbox()).map((row) => row.template).sort()).toEqual(["new_order", "order_received"]);
  });
});

describe("other mails", () => {
  it("a contact message goes to the shop, with Reply-To the sender", async () => {
    await (await callerAs(db, null)).contact.send({ name: "Sipho <b>Dube</b>", email: "sipho@example.test", phone: "082 555 0101", message: "Do you cater for 40 people?" });
    await drainOutbox(deps());
    const [mail] = smtp.received;
    expect(mail?.rcptTo).toEqual([SHOP_INBOX]);
    expect(mail?.replyTo).toBe("sipho@example.test");
    expect(mail?.text).toContain("Do you cater for 40 people?");
    expect(mail?.html).toContain("Sipho &lt;b&gt;Dube&lt;/b&gt;");
  });

  it("a deleted account gets a last mail confirming what went and what stays", async () => {
    const customer = await createUser(db, { fullName: "Leaving Customer" });
    await (await callerAs(db, customer)).profile.deleteAccount();
    await drainOutbox(deps());
    expect(smtp.received.map((mail) => mail.rcptTo)).toEqual([[customer.email]]);
  });
});

describe("delivery", () => {
  it("retries while the server refuses, backing off, and delivers when it accepts again", async () => {
    const { caller } = await customerWithCart();
    await placeOrder(caller);
    smtp.mode = "refuse";
    expect(await deliverDue(deps())).toMatchObject({ sent: 0, retrying: 2 });
    const waiting = await outbox();
    expect(waiting.every((row) => row.attempts === 1 && row.sent_at === null && row.failed_at === null && row.last_error)).toBe(true);
    expect(waiting.every((row) => row.next_attempt_at.getTime() > Date.now() + 20_000)).toBe(true);
    // Nothing is due until the back-off is over.
    expect((await deliverDue(deps())).claimed).toBe(0);

    smtp.mode = "accept";
    await db.kysely.updateTable("mail_outbox").set({ next_attempt_at: new Date() }).where("sent_at", "is", null).execute();
    expect(await deliverDue(deps())).toMatchObject({ sent: 2 });
    expect(smtp.received).toHaveLength(2);
  });

  it("gives up after 10 failed tries with the server away, and admins see it failed", async () => {
    const { caller } = await customerWithCart();
    await placeOrder(caller);
    const away = deps("smtp://shop:secret@127.0.0.1:1");
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      await db.kysely.updateTable("mail_outbox").set({ next_attempt_at: new Date() }).where("sent_at", "is", null).where("failed_at", "is", null).execute();
      await deliverDue(away);
    }
    const rows = await outbox();
    expect(rows.every((row) => row.attempts === MAX_ATTEMPTS && row.failed_at !== null)).toBe(true);
    const seen = await (await callerAs(db, admin)).mail.outbox();
    expect(seen.counts.failed).toBe(2);
    expect(seen.mails.every((mail) => mail.status === "failed" && mail.lastError)).toBe(true);
    // A failed mail is not tried again.
    await db.kysely.updateTable("mail_outbox").set({ next_attempt_at: new Date() }).where("id", "is not", null).execute();
    expect((await deliverDue(deps())).claimed).toBe(0);
  });

  it("a mail sent twice after a crash carries one Message-ID", async () => {
    const { caller } = await customerWithCart();
    await placeOrder(caller);
    await drainOutbox(deps());
    // As if the process died after the server took the mails and before marking them sent.
    await db.kysely.updateTable("mail_outbox").set({ sent_at: null, next_attempt_at: new Date() }).where("id", "is not", null).execute();
    await drainOutbox(deps());
    expect(smtp.received).toHaveLength(4);
    expect(new Set(smtp.received.map((mail) => mail.messageId)).size).toBe(2);
  });

  it("two workers at once send each mail once", async () => {
    for (let i = 0; i < 3; i++) await placeOrder((await customerWithCart(`Parallel ${i}`)).caller);
    const [first, second] = await Promise.all([drainOutbox(deps()), drainOutbox(deps())]);
    expect(first.sent + second.sent).toBe(6);
    expect(new Set(smtp.received.map((mail) => mail.messageId)).size).toBe(6);
    expect(BATCH).toBeGreaterThan(1);
  });
});

describe("who may read the outbox", () => {
  it("admins see every mail rendered; customers and visitors see nothing", async () => {
    const { customer, caller } = await customerWithCart();
    await placeOrder(caller);
    const seen = await (await callerAs(db, admin)).mail.outbox();
    expect(seen.mails.map((mail) => mail.recipient).sort()).toEqual([ORDERS_INBOX, customer.email].sort());
    expect(seen.mails.every((mail) => mail.subject && mail.text)).toBe(true);
    expect((await trpcRefusal(caller.mail.outbox())).code).toBe("FORBIDDEN");
    expect((await trpcRefusal((await callerAs(db, null)).mail.outbox())).code).toBe("UNAUTHORIZED");
    // Under RLS, straight SQL as the customer reads no rows either.
    const rows = await runAs(db.kysely, customer.identity, (trx) => sql`select id from public.mail_outbox`.execute(trx));
    expect(rows.rows).toEqual([]);
    expect(messages.mail.title).toBe("Outbox");
  });
});
