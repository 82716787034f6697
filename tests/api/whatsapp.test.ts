import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { formatDay } from "@/lib/days";
import { formatRand } from "@/lib/money";
import { quotePath } from "@/lib/order-paths";
import { messages } from "@/lib/messages";
import { runAs } from "@/server/db/as-caller";
import { claimDue, consentedWhatsAppNumber } from "@/server/mail/outbox-queries";
import { CLAIM_MS, deliverDue, drainOutbox, type DeliveryDeps } from "@/server/mail/outbox";
import { mailShopFrom } from "@/server/mail/shop";
import { handleNotification, isStop, verificationAnswer } from "@/server/messaging/webhook";
import { WHATSAPP_TEMPLATES } from "@/server/messaging/templates";
import { createWhatsAppChannel } from "@/server/platform/adapters/whatsapp/cloud-api";
import { createSmtpTransport } from "@/server/platform/adapters/mail/smtp-transport";
import { saveSettings } from "@/server/settings/settings-queries";
import { shopSettingsFor, type ShopSettings } from "@/server/settings/shop-settings";
import { callerAs, type Caller } from "../helpers/browser";
import { createUser, freshDatabase, type TestDatabase, type TestUser } from "../helpers/database";
import { startFakeWhatsApp, type FakeWhatsApp } from "../helpers/fake-whatsapp";
import { fileOf, makePng } from "../helpers/images";
import { configuredShopSettings } from "../helpers/shop-settings";
import { startTestSmtp, type TestSmtp } from "../helpers/smtp";

/**
 * Order updates on WhatsApp (issue 40) through the outbox, against a fake Cloud API on loopback
 * and a real SMTP server: a customer who chose WhatsApp gets each notice there once; nobody
 * without a live consent ever does (whatever the row says); STOP works at once and is confirmed
 * once; statuses arrive out of order and twice; a message that fails for good goes by e-mail once.
 */
let db: TestDatabase;
let smtp: TestSmtp;
let fake: FakeWhatsApp;
let settings: ShopSettings;
let admin: TestUser;
let productId: string;

function deps(options: { whatsapp?: boolean } = {}): DeliveryDeps {
  return {
    db: db.kysely,
    transport: createSmtpTransport(smtp.url),
    whatsapp: options.whatsapp === false ? undefined : createWhatsAppChannel(fake.settings),
    shop: async () => mailShopFrom(await settings.published()),
  };
}

async function notify(payload: unknown) {
  const { body, signature } = fake.signed(payload);
  return handleNotification(db.kysely, fake.settings, body, signature);
}

beforeAll(async () => {
  db = await freshDatabase();
  smtp = await startTestSmtp();
  fake = await startFakeWhatsApp();
  admin = await createUser(db, { role: "admin", fullName: "Shop Owner" });
  await runAs(db.kysely, admin.identity, (trx) => saveSettings(trx, { ...configuredShopSettings(), email: "hello@ourworld.test", ordersEmail: "orders@ourworld.test" }));
  settings = await shopSettingsFor(db);
  settings.changed();
  productId = (await db.kysely.selectFrom("products").select("id").where("available", "=", true).limit(1).executeTakeFirstOrThrow()).id;
});

afterAll(async () => {
  await fake?.close();
  await smtp?.close();
  await db?.close();
});

beforeEach(async () => {
  await drainOutbox(deps());
  await db.kysely.deleteFrom("mail_outbox").where("id", "is not", null).execute();
  smtp.received.length = 0;
  fake.sent.length = 0;
  fake.refused.length = 0;
  fake.repeats = 0;
  fake.mode = "accept";
});

let phoneSerial = 1000;
/** A customer with two items in the cart, who chose WhatsApp (or not). */
async function customer(options: { whatsapp: boolean }): Promise<{ user: TestUser; caller: Caller; phone: string }> {
  const user = await createUser(db, { fullName: "Thandi Nkosi" });
  const caller = await callerAs(db, user, { whatsapp: fake.settings });
  const phone = `+2782555${String(phoneSerial++).padStart(4, "0")}`;
  if (options.whatsapp) await caller.messaging.setConsent({ kind: "whatsapp_updates", given: true, phone: `0${phone.slice(3)}` });
  await caller.cart.add({ productId });
  await caller.cart.add({ productId });
  return { user, caller, phone };
}

async function placeOrder(caller: Caller) {
  const { reference } = await caller.checkout.start();
  const form = new FormData();
  form.set("proof", fileOf(makePng(8, 8), "proof.png"));
  form.set("reference", reference!);
  form.set("idempotencyKey", randomUUID());
  return caller.checkout.placeOrder(form);
}

const rowsFor = (email: string) => db.kysely.selectFrom("mail_outbox").selectAll().where("recipient", "=", email).orderBy("created_at").execute();

describe("a customer who chose WhatsApp", () => {
  it("gets the order received and each status change there, once, with the template's parameters, and no e-mail", async () => {
    const { user, caller, phone } = await customer({ whatsapp: true });
    const placed = await placeOrder(caller);
    const [row] = await rowsFor(user.email);
    expect(row).toMatchObject({ template: "order_received", channel: "whatsapp", user_id: user.id });

    expect(await deliverDue(deps())).toMatchObject({ failed: 0, retrying: 0 });
    expect(fake.refused).toEqual([]);
    expect(fake.sent).toHaveLength(1);
    const order = await db.kysely.selectFrom("orders").select("total").where("id", "=", placed.orderId).executeTakeFirstOrThrow();
    expect(fake.sent[0]).toMatchObject({ to: phone.slice(1), template: "order_received", language: "en", idempotencyKey: row!.id });
    expect(fake.sent[0]!.parameters.slice(0, 3)).toEqual(["Thandi Nkosi", placed.reference, formatRand(order.total)]);
    expect(fake.sent[0]!.parameters[3]).toBe(messages.whatsapp.proofReceived);
    // The shop's own notice is still a mail; the customer got none.
    expect(smtp.received.some((mail) => mail.rcptTo.includes(user.email))).toBe(false);
    const sent = (await rowsFor(user.email))[0]!;
    expect(sent.sent_at).not.toBeNull();
    expect(sent.provider_message_id).toBe(fake.sent[0]!.id);

    await (await callerAs(db, admin)).adminOrders.updateStatus({ id: placed.orderId, status: "complete" });
    await drainOutbox(deps());
    expect(fake.sent.map((message) => message.template)).toEqual(["order_received", "order_status_changed"]);
    expect(fake.sent[1]!.parameters).toEqual(["Thandi Nkosi", placed.reference, messages.orderStatus.complete]);
    expect(smtp.received.some((mail) => mail.rcptTo.includes(user.email))).toBe(false);

    // Delivering again sends nothing more: each notice once.
    await drainOutbox(deps());
    expect(fake.sent).toHaveLength(2);
  });

  it("an admin marking the bank transfer received sends 'payment confirmed' with the amount and what happens next", async () => {
    const { caller } = await customer({ whatsapp: true });
    const placed = await placeOrder(caller);
    await drainOutbox(deps());
    await (await callerAs(db, admin)).adminOrders.updateStatus({ id: placed.orderId, status: "pending_delivery" });
    await drainOutbox(deps());
    expect(fake.sent.map((message) => message.template)).toEqual(["order_received", "payment_confirmed"]);
    const order = await db.kysely.selectFrom("orders").select(["total", "fulfilment_method", "fulfilment_day"]).where("id", "=", placed.orderId).executeTakeFirstOrThrow();
    const next = order.fulfilment_method ? messages.whatsapp.nextStep[order.fulfilment_method](formatDay(String(order.fulfilment_day))) : messages.whatsapp.thankYou;
    expect(fake.sent[1]!.parameters).toEqual(["Thandi Nkosi", formatRand(order.total), placed.reference, next]);
    // Later changes are status changes again.
    await (await callerAs(db, admin)).adminOrders.updateStatus({ id: placed.orderId, status: "complete" });
    await drainOutbox(deps());
    expect(fake.sent[2]).toMatchObject({ template: "order_status_changed", parameters: ["Thandi Nkosi", placed.reference, messages.orderStatus.complete] });
  });

  it("a quote sent to them arrives as 'quote sent' with its number, total, last day and link", async () => {
    const { user, caller } = await customer({ whatsapp: true });
    const variantId = (await db.kysely.selectFrom("product_variants").select("id").where("product_id", "=", productId).executeTakeFirstOrThrow()).id;
    const { requestId } = await caller.quotes.request({ description: "Forty branded shirts", items: [{ variantId, quantity: 40 }] });
    const asAdmin = await callerAs(db, admin);
    const validUntil = new Date(Date.now() + 20 * 86_400_000).toISOString().slice(0, 10);
    const { quoteId } = await asAdmin.adminQuotes.saveDraft({ requestId, validUntil, terms: "", note: "", lines: [{ kind: "custom", description: "Forty shirts", quantity: 40, unitPrice: "100" }] });
    const { number } = await asAdmin.adminQuotes.send({ quoteId });
    const row = (await rowsFor(user.email)).find((r) => r.template === "quote_sent");
    expect(row).toMatchObject({ channel: "whatsapp", user_id: user.id });
    await drainOutbox(deps());
    const sent = fake.sent.find((message) => message.template === "quote_sent");
    expect(sent!.parameters).toEqual(["Thandi Nkosi", number, formatRand("4000.00"), formatDay(validUntil), `${mailShopFrom(await settings.published()).siteUrl}${quotePath(requestId)}`]);
    expect(smtp.received.some((mail) => mail.rcptTo.includes(user.email))).toBe(false);
  });

  it("records delivery statuses that arrive out of order and twice: the row ends at read", async () => {
    const { user, caller } = await customer({ whatsapp: true });
    await placeOrder(caller);
    await drainOutbox(deps());
    const message = fake.sent[0]!;
    for (const payload of fake.statusNotifications(message, ["delivered", "sent", "read", "delivered", "read", "sent"])) {
      expect((await notify(payload)).status).toBe(200);
    }
    const [row] = await rowsFor(user.email);
    expect(row).toMatchObject({ delivery_status: "read", provider_message_id: message.id });
  });

  it("Order Management shows the order's messages to its customer: channel, delivery, the e-mail that replaced a failed one", async () => {
    const { caller } = await customer({ whatsapp: true });
    const placed = await placeOrder(caller);
    // Another order of another customer, whose messages are not this order's.
    await placeOrder((await customer({ whatsapp: false })).caller);
    await drainOutbox(deps());
    const received = fake.sent.find((message) => message.parameters[1] === placed.reference)!;
    await notify(fake.statusNotifications(received, ["read"])[0]);
    const adminCaller = await callerAs(db, admin);
    fake.mode = "refuse";
    await adminCaller.adminOrders.updateStatus({ id: placed.orderId, status: "complete" });
    await drainOutbox(deps());

    const shown = await adminCaller.mail.orderMessages({ id: placed.orderId });
    expect(shown.map((message) => [message.template, message.channel, message.deliveryStatus, message.status, message.fallback])).toEqual([
      ["order_received", "whatsapp", "read", "sent", false],
      ["status_changed", "whatsapp", null, "failed", false],
      ["status_changed", "email", null, "sent", true],
    ]);
    // The shop's own new-order mail names the reference too, but was not the customer's.
    expect(shown.every((message) => message.recipient !== "orders@ourworld.test")).toBe(true);
    expect(shown[0]!.text).toContain(placed.reference);
    await expect(caller.mail.orderMessages({ id: placed.orderId })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(adminCaller.mail.orderMessages({ id: "not-an-id" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });

  it("a status that arrives before the worker wrote down WhatsApp's id still finds its row (by its idempotency key)", async () => {
    const { user, caller } = await customer({ whatsapp: true });
    await placeOrder(caller);
    const [row] = await rowsFor(user.email);
    const early = { id: "wamid.early", to: "27820000000", type: "template" as const, parameters: [], idempotencyKey: row!.id };
    await notify(fake.statusNotifications(early, ["delivered"])[0]);
    expect((await rowsFor(user.email))[0]).toMatchObject({ delivery_status: "delivered", provider_message_id: "wamid.early" });
  });

  it("STOP withdraws the consent at once and is confirmed once; the next notice goes by e-mail", async () => {
    const { user, caller, phone } = await customer({ whatsapp: true });
    const placed = await placeOrder(caller);
    await drainOutbox(deps());
    expect(fake.sent).toHaveLength(1);

    expect((await notify(fake.inbound(phone, "Stop."))).applied.stops).toBe(1);
    expect((await caller.messaging.myConsents()).whatsappUpdates).toBeNull();
    const consent = await db.kysely.selectFrom("messaging_consents").select("withdrawn_via").where("user_id", "=", user.id).executeTakeFirstOrThrow();
    expect(consent.withdrawn_via).toBe("stop");
    // A second STOP (or Meta sending the first again) has nothing to withdraw: no second confirmation.
    await notify(fake.inbound(phone, "STOP"));
    await drainOutbox(deps());
    expect(fake.sent.map((message) => [message.type, message.to, message.text])).toEqual([
      ["template", phone.slice(1), undefined],
      ["text", phone.slice(1), messages.whatsapp.stopConfirmed],
    ]);

    await (await callerAs(db, admin)).adminOrders.updateStatus({ id: placed.orderId, status: "pending_delivery" });
    await drainOutbox(deps());
    expect(fake.sent).toHaveLength(2);
    expect(smtp.received.filter((mail) => mail.rcptTo.includes(user.email)).map((mail) => mail.text.includes("Pending Delivery"))).toEqual([true]);
  });

  it("STOP between the event and the send is honoured: the waiting row goes by e-mail", async () => {
    const { user, caller, phone } = await customer({ whatsapp: true });
    await placeOrder(caller);
    await notify(fake.inbound(phone, "unsubscribe"));
    await drainOutbox(deps());
    expect(fake.sent.filter((message) => message.type === "template")).toEqual([]);
    expect((await rowsFor(user.email))[0]).toMatchObject({ channel: "email" });
    expect(smtp.received.filter((mail) => mail.rcptTo.includes(user.email))).toHaveLength(1);
  });

  it("a message WhatsApp refuses for good falls back to one e-mail; a later 'failed' status adds none", async () => {
    const { user, caller } = await customer({ whatsapp: true });
    await placeOrder(caller);
    fake.mode = "refuse";
    await drainOutbox(deps());
    const rows = await rowsFor(user.email);
    expect(rows.map((row) => [row.channel, row.failed_at !== null, row.sent_at !== null, row.fallback_of])).toEqual([
      ["whatsapp", true, false, null],
      ["email", false, true, rows[0]!.id],
    ]);
    expect(smtp.received.filter((mail) => mail.rcptTo.includes(user.email))).toHaveLength(1);
    await runAs(db.kysely, { kind: "service" }, async (trx) => {
      await trx.updateTable("mail_outbox").set({ provider_message_id: "wamid.gone" }).where("id", "=", rows[0]!.id).execute();
    });
    await notify(fake.statusNotifications({ id: "wamid.gone", to: "1", type: "template", parameters: [], idempotencyKey: rows[0]!.id }, ["failed"])[0]);
    await drainOutbox(deps());
    expect(await rowsFor(user.email)).toHaveLength(2);
  });

  it("a message accepted and then reported failed falls back to e-mail once", async () => {
    const { user, caller } = await customer({ whatsapp: true });
    await placeOrder(caller);
    await drainOutbox(deps());
    const [failed, again] = fake.statusNotifications(fake.sent[0]!, ["failed", "failed"]);
    await notify(failed);
    await notify(again);
    await drainOutbox(deps());
    const rows = await rowsFor(user.email);
    expect(rows.map((row) => [row.channel, row.delivery_status])).toEqual([
      ["whatsapp", "failed"],
      ["email", null],
    ]);
    expect(smtp.received.filter((mail) => mail.rcptTo.includes(user.email))).toHaveLength(1);
  });

  it("WhatsApp away (5xx) is tried again later, not failed", async () => {
    const { user, caller } = await customer({ whatsapp: true });
    await placeOrder(caller);
    fake.mode = "down";
    expect(await deliverDue(deps())).toMatchObject({ retrying: 1 });
    const [row] = await rowsFor(user.email);
    expect(row).toMatchObject({ attempts: 1, failed_at: null, sent_at: null, channel: "whatsapp" });
    expect(row!.last_error).toContain("HTTP 500");
    expect(row!.last_error).not.toContain(fake.settings.accessToken);
  });

  it("a crash after the send and before the row is marked: the retry is one message (the fake knows its idempotency key)", async () => {
    const { user, caller } = await customer({ whatsapp: true });
    await placeOrder(caller);
    // The worker claims, sends, and dies before marking the row.
    const claimed = (await claimDue(db.kysely, 20, CLAIM_MS, ["whatsapp"])).filter((row) => row.recipient === user.email);
    expect(claimed).toHaveLength(1);
    const channel = createWhatsAppChannel(fake.settings);
    await channel.sendTemplate({ to: (await consentedWhatsAppNumber(db.kysely, user.id))!, name: "order_received", language: "en", parameters: ["a", "b", "c", "d"], idempotencyKey: claimed[0]!.id });
    // After the claim runs out, another worker takes the row and sends it again.
    await db.kysely.updateTable("mail_outbox").set({ next_attempt_at: new Date(Date.now() - 1000) }).where("id", "=", claimed[0]!.id).execute();
    await drainOutbox(deps());
    expect(fake.sent).toHaveLength(1);
    expect(fake.repeats).toBe(1);
    expect((await rowsFor(user.email))[0]!.sent_at).not.toBeNull();
  });
});

describe("nobody without a live consent gets a WhatsApp message", () => {
  it("a customer who did not choose it gets e-mail", async () => {
    const { user, caller } = await customer({ whatsapp: false });
    await placeOrder(caller);
    expect((await rowsFor(user.email))[0]).toMatchObject({ channel: "email" });
    await drainOutbox(deps());
    expect(fake.sent).toEqual([]);
    expect(smtp.received.filter((mail) => mail.rcptTo.includes(user.email))).toHaveLength(1);
  });

  it("a forged or replayed WhatsApp row for a customer without consent goes by e-mail, never to WhatsApp", async () => {
    const { user } = await customer({ whatsapp: false });
    const { user: other } = await customer({ whatsapp: true });
    for (const userId of [user.id, null]) {
      await db.kysely
        .insertInto("mail_outbox")
        .values({ recipient: user.email, template: "status_changed", channel: "whatsapp", user_id: userId, data: JSON.stringify({ customerName: "X", reference: "ORD-1", status: "complete" }) })
        .execute();
    }
    // A row naming someone else's number in its data changes nothing: the number is the consent's.
    await db.kysely
      .insertInto("mail_outbox")
      .values({ recipient: user.email, template: "status_changed", channel: "whatsapp", user_id: user.id, data: JSON.stringify({ customerName: "X", reference: "ORD-1", status: "complete", phone: "+27825550000", to: other.id }) })
      .execute();
    await drainOutbox(deps());
    expect(fake.sent).toEqual([]);
    expect(smtp.received.filter((mail) => mail.rcptTo.includes(user.email))).toHaveLength(3);
  });

  it("without WhatsApp configured, a consented customer's rows go by e-mail exactly as before", async () => {
    const { user, caller } = await customer({ whatsapp: true });
    await placeOrder(caller);
    await drainOutbox(deps({ whatsapp: false }));
    expect(fake.sent).toEqual([]);
    expect((await rowsFor(user.email))[0]).toMatchObject({ channel: "email" });
    expect(smtp.received.filter((mail) => mail.rcptTo.includes(user.email))).toHaveLength(1);
  });
});

describe("the webhook", () => {
  it("answers Meta's handshake only with the verify token", () => {
    const params = (mode: string, token: string) => new URLSearchParams({ "hub.mode": mode, "hub.verify_token": token, "hub.challenge": "1158201444" });
    expect(verificationAnswer(params("subscribe", fake.settings.verifyToken), fake.settings)).toEqual({ status: 200, body: "1158201444" });
    expect(verificationAnswer(params("subscribe", "wrong-token-wrong-token"), fake.settings).status).toBe(403);
    expect(verificationAnswer(params("unsubscribe", fake.settings.verifyToken), fake.settings).status).toBe(403);
    expect(verificationAnswer(new URLSearchParams(), fake.settings).status).toBe(403);
  });

  it("believes nothing without a valid signature: a wrong or missing one changes nothing", async () => {
    const { user, caller, phone } = await customer({ whatsapp: true });
    await placeOrder(caller);
    await drainOutbox(deps());
    const [delivered] = fake.statusNotifications(fake.sent[0]!, ["read"]);
    const stop = fake.inbound(phone, "STOP");
    for (const payload of [delivered, stop]) {
      const { body, signature } = fake.signed(payload);
      const wrong = `sha256=${"0".repeat(64)}`;
      const otherSecret = { appSecret: "not-the-app-secret" };
      expect((await handleNotification(db.kysely, fake.settings, body, null)).status).toBe(401);
      expect((await handleNotification(db.kysely, fake.settings, body, wrong)).status).toBe(401);
      expect((await handleNotification(db.kysely, otherSecret, body, signature)).status).toBe(401);
      // The signature of another body does not carry over.
      expect((await handleNotification(db.kysely, fake.settings, new TextEncoder().encode(JSON.stringify(payload) + " "), signature)).status).toBe(401);
    }
    expect((await rowsFor(user.email))[0]!.delivery_status).toBeNull();
    expect((await caller.messaging.myConsents()).whatsappUpdates).not.toBeNull();
  });

  it("shows any other inbound message to admins as a contact message from the customer, once", async () => {
    const { user, phone } = await customer({ whatsapp: true });
    const payload = fake.inbound(phone, "Can I collect on Saturday instead?", "Thandi");
    await notify(payload);
    await notify(payload);
    const messagesFromCustomer = await db.kysely.selectFrom("contact_messages").selectAll().where("phone", "=", phone).execute();
    expect(messagesFromCustomer).toHaveLength(1);
    expect(messagesFromCustomer[0]).toMatchObject({ name: "Thandi Nkosi", email: user.email, user_id: user.id });
    expect(messagesFromCustomer[0]!.message).toContain("Can I collect on Saturday instead?");
  });

  it("knows STOP's usual variants, and only them", () => {
    for (const stop of ["STOP", "stop", "Stop.", " stop! ", "Unsubscribe", "opt out", "Opt-out", "STOP 🛑", "Stop please"]) expect(isStop(stop), stop).toBe(true);
    for (const other of ["Don't stop", "stop my order from being delivered", "When will it arrive?", "stopping by later"]) expect(isStop(other), other).toBe(false);
  });
});

describe("the templates", () => {
  it("each has a name, a language, its parameters and English text with as many placeholders", () => {
    for (const template of Object.values(WHATSAPP_TEMPLATES)) {
      const placeholders = template.text.match(/\{\{\d+\}\}/g) ?? [];
      expect(placeholders).toHaveLength(template.parameters.length);
      expect(template.name).toMatch(/^[a-z0-9_]+$/);
    }
  });
});
