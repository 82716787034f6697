import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { formatSlot, shopDay } from "@/lib/days";
import { messages } from "@/lib/messages";
import { formatRand } from "@/lib/money";
import { runAs } from "@/server/db/as-caller";
import { drainOutbox, type DeliveryDeps } from "@/server/mail/outbox";
import { mailShopFrom } from "@/server/mail/shop";
import type { WhatsAppSettingsInput } from "@/server/messaging/schemas";
import { verificationAnswer } from "@/server/messaging/webhook";
import { whatsappChannelOf } from "@/server/platform/mail";
import type { ShopProcess } from "@/server/platform/shop-process";
import type { WhatsAppEnvironment } from "@/server/ports/messaging";
import { createSmtpTransport } from "@/server/platform/adapters/mail/smtp-transport";
import { saveSettings } from "@/server/settings/settings-queries";
import { shopSettingsFor, type ShopSettings } from "@/server/settings/shop-settings";
import { trpcRefusal } from "../helpers/attempt";
import { callerAs, testShopProcess, type Caller } from "../helpers/browser";
import { createUser, freshDatabase, type TestDatabase, type TestUser } from "../helpers/database";
import { startFakeWhatsApp, type FakeWhatsApp } from "../helpers/fake-whatsapp";
import { fileOf, makePng } from "../helpers/images";
import { configuredShopSettings } from "../helpers/shop-settings";
import { startTestSmtp, type TestSmtp } from "../helpers/smtp";

/**
 * WhatsApp's settings in Shop settings and the owner's own alerts (issue 40, items 5 and 6;
 * docs/whatsapp.md): admins only, the token and secrets never sent back; the settings in force
 * change without a restart; WHATSAPP_* while nothing is saved; the go-live checklist; a
 * new-order and a new-booking alert written with their event and sent to the owner's number
 * through a fake Cloud API, and only while the owner asks for them.
 */
let db: TestDatabase;
let smtp: TestSmtp;
let fake: FakeWhatsApp;
let settings: ShopSettings;
let admin: Caller;
let adminUser: TestUser;
let productId: string;
/** The API's address only: the credentials come from Shop settings. */
let api: WhatsAppEnvironment;
let shop: ShopProcess;

const OWNER = "+27825550100";

function on(values: Partial<WhatsAppSettingsInput> = {}): WhatsAppSettingsInput {
  const { phoneNumberId, accessToken, appSecret, verifyToken } = fake.settings;
  return { enabled: true, phoneNumberId, accessToken, appSecret, verifyToken, ownerPhone: "082 555 0100", ownerAlerts: true, ...values };
}

async function deps(): Promise<DeliveryDeps> {
  return {
    db: db.kysely,
    transport: createSmtpTransport(smtp.url),
    whatsapp: await whatsappChannelOf(shop),
    shop: async () => mailShopFrom(await settings.published()),
  };
}

beforeAll(async () => {
  db = await freshDatabase();
  smtp = await startTestSmtp();
  fake = await startFakeWhatsApp();
  api = { apiUrl: fake.settings.apiUrl, apiVersion: fake.settings.apiVersion };
  adminUser = await createUser(db, { role: "admin", fullName: "Shop Owner" });
  admin = await callerAs(db, adminUser, { whatsapp: api });
  await runAs(db.kysely, adminUser.identity, (trx) => saveSettings(trx, { ...configuredShopSettings(), email: "hello@ourworld.test", ordersEmail: "orders@ourworld.test" }));
  settings = await shopSettingsFor(db);
  settings.changed();
  shop = await testShopProcess(db, { whatsapp: api });
  productId = (await db.kysely.selectFrom("products").select("id").where("available", "=", true).limit(1).executeTakeFirstOrThrow()).id;
});

afterAll(async () => {
  await fake?.close();
  await smtp?.close();
  await db?.close();
});

beforeEach(async () => {
  await db.kysely.deleteFrom("whatsapp_settings").where("id", "=", true).execute();
  shop.whatsapp.changed();
  await db.kysely.deleteFrom("mail_outbox").where("id", "is not", null).execute();
  smtp.received.length = 0;
  fake.sent.length = 0;
  fake.refused.length = 0;
  fake.mode = "accept";
});

const savedRow = () => db.kysely.selectFrom("whatsapp_settings").selectAll().executeTakeFirst();

describe("WhatsApp's settings in Shop settings", () => {
  it("admins save them; the token and secrets never come back, only whether each is set, and a blank box keeps them", async () => {
    const saved = await admin.messaging.updateSettings(on());
    expect(saved.message).toBe(messages.whatsappSettings.saved);
    expect(saved.values).toMatchObject({ source: "saved", on: true, enabled: true, phoneNumberId: fake.settings.phoneNumberId, hasAccessToken: true, hasAppSecret: true, hasVerifyToken: true, ownerPhone: OWNER, ownerAlerts: true });
    const read = await admin.messaging.settings();
    expect(read).toEqual(saved.values);
    for (const answer of [JSON.stringify(saved), JSON.stringify(read)]) {
      for (const secret of [fake.settings.accessToken, fake.settings.appSecret, fake.settings.verifyToken]) expect(answer).not.toContain(secret);
    }

    await admin.messaging.updateSettings(on({ accessToken: "", appSecret: "", verifyToken: "", ownerPhone: "+44 7911 123456" }));
    expect(await savedRow()).toMatchObject({ access_token: fake.settings.accessToken, app_secret: fake.settings.appSecret, verify_token: fake.settings.verifyToken, owner_phone: "+447911123456" });
  });

  it("a customer and a visitor can neither read nor change them, through the API or the database", async () => {
    await admin.messaging.updateSettings(on());
    const customerUser = await createUser(db, { fullName: "Curious Customer" });
    const customer = await callerAs(db, customerUser, { whatsapp: api });
    const visitor = await callerAs(db, null, { whatsapp: api });
    expect((await trpcRefusal(customer.messaging.settings())).code).toBe("FORBIDDEN");
    expect((await trpcRefusal(customer.messaging.updateSettings(on({ ownerPhone: "082 000 0000", accessToken: "stolen" })))).code).toBe("FORBIDDEN");
    expect((await trpcRefusal(visitor.messaging.settings())).code).toBe("UNAUTHORIZED");
    expect((await trpcRefusal(visitor.messaging.updateSettings(on()))).code).toBe("UNAUTHORIZED");
    const before = await savedRow();
    await runAs(db.kysely, customerUser.identity, async (trx) => {
      expect(await trx.selectFrom("whatsapp_settings").select("access_token").execute()).toEqual([]);
      const updated = await trx.updateTable("whatsapp_settings").set({ owner_phone: "+27820000000" }).where("id", "=", true).executeTakeFirst();
      expect(updated.numUpdatedRows).toBe(0n);
    });
    expect(await savedRow()).toEqual(before);
  });

  it("alerts need the owner's number, and the number must be a mobile number", async () => {
    const missing = await trpcRefusal(admin.messaging.updateSettings(on({ ownerPhone: "" })));
    expect(missing.code).toBe("BAD_REQUEST");
    expect(missing.message).toBe(messages.whatsappSettings.ownerPhoneRequired);
    const wrong = await trpcRefusal(admin.messaging.updateSettings(on({ ownerPhone: "123" })));
    expect(wrong.message).toBe(messages.consent.invalidPhone);
    expect(await savedRow()).toBeUndefined();
  });

  it("switching WhatsApp on, off, or changing its settings takes effect in every process without a restart", async () => {
    const other = await testShopProcess(db, { whatsapp: api });
    expect(await other.whatsapp.isOn()).toBe(false);
    await admin.messaging.updateSettings(on());
    await expect.poll(() => other.whatsapp.isOn(), { timeout: 5_000 }).toBe(true);
    const verify = (token: string, settingsInForce: { verifyToken: string }) =>
      verificationAnswer(new URLSearchParams({ "hub.mode": "subscribe", "hub.verify_token": token, "hub.challenge": "42" }), settingsInForce).status;
    expect(verify(fake.settings.verifyToken, (await other.whatsapp.current()).settings!)).toBe(200);

    const newToken = `verify-${randomUUID()}`;
    await admin.messaging.updateSettings(on({ verifyToken: newToken }));
    await expect.poll(async () => (await other.whatsapp.current()).settings?.verifyToken, { timeout: 5_000 }).toBe(newToken);
    expect(verify(fake.settings.verifyToken, (await other.whatsapp.current()).settings!)).toBe(403);

    await admin.messaging.updateSettings(on({ enabled: false }));
    await expect.poll(() => other.whatsapp.isOn(), { timeout: 5_000 }).toBe(false);
    expect(await whatsappChannelOf(other)).toBeUndefined();
    // A customer is offered WhatsApp only while it is on.
    const customer = await callerAs(db, await createUser(db), { whatsapp: api });
    expect((await customer.messaging.myConsents()).whatsappOn).toBe(false);
  });

  it("while nothing is saved, WHATSAPP_* are in force; the first save keeps them, and from then on the saved settings win", async () => {
    const environment = { ...fake.settings };
    const fromEnv = await testShopProcess(db, { whatsapp: environment });
    expect(await fromEnv.whatsapp.current()).toMatchObject({ source: "environment", incomplete: false, settings: { accessToken: fake.settings.accessToken } });
    const envAdmin = await callerAs(db, adminUser, { whatsapp: environment });
    const shown = await envAdmin.messaging.settings();
    expect(shown).toMatchObject({ source: "environment", on: true, phoneNumberId: fake.settings.phoneNumberId, hasAccessToken: true, ownerPhone: "", ownerAlerts: false });
    expect(JSON.stringify(shown)).not.toContain(fake.settings.accessToken);

    await envAdmin.messaging.updateSettings(on({ accessToken: "", appSecret: "", verifyToken: "" }));
    expect(await savedRow()).toMatchObject({ access_token: fake.settings.accessToken, app_secret: fake.settings.appSecret, verify_token: fake.settings.verifyToken });
    await envAdmin.messaging.updateSettings(on({ enabled: false, accessToken: "", appSecret: "", verifyToken: "" }));
    await expect.poll(() => fromEnv.whatsapp.isOn(), { timeout: 5_000 }).toBe(false);
    expect((await fromEnv.whatsapp.current()).source).toBe("saved");
  });

  it("the go-live checklist names WhatsApp while it is switched on without all four settings, saved or from the environment", async () => {
    expect((await admin.settings.goLive()).items).not.toContain("whatsapp");
    const partial = await admin.messaging.updateSettings(on({ accessToken: "", appSecret: "", verifyToken: "", ownerAlerts: false }));
    expect(partial.message).toBe(messages.whatsappSettings.savedIncomplete);
    expect(partial.values).toMatchObject({ enabled: true, on: false, hasAccessToken: false });
    expect((await admin.settings.goLive()).items).toContain("whatsapp");
    await admin.messaging.updateSettings(on());
    expect((await admin.settings.goLive()).items).not.toContain("whatsapp");
    await admin.messaging.updateSettings(on({ enabled: false, phoneNumberId: "", ownerAlerts: false }));
    expect((await admin.settings.goLive()).items).not.toContain("whatsapp");

    await db.kysely.deleteFrom("whatsapp_settings").where("id", "=", true).execute();
    const halfEnv = await callerAs(db, adminUser, { whatsapp: { phoneNumberId: "106540352242922", accessToken: "EAAGtoken" } });
    expect((await halfEnv.settings.goLive()).items).toContain("whatsapp");
  });
});

let phoneSerial = 2000;
/** A customer with an item in the cart (no WhatsApp of their own: the alerts are the owner's). */
async function customer(): Promise<{ user: TestUser; caller: Caller }> {
  const user = await createUser(db, { fullName: "Thandi Nkosi", email: `thandi-${phoneSerial++}@example.test` });
  const caller = await callerAs(db, user, { whatsapp: api });
  return { user, caller };
}

async function placeOrder(caller: Caller) {
  const { reference } = await caller.checkout.start();
  const form = new FormData();
  form.set("proof", fileOf(makePng(8, 8), "proof.png"));
  form.set("reference", reference!);
  form.set("idempotencyKey", randomUUID());
  return caller.checkout.placeOrder(form);
}

const alertRows = () =>
  db.kysely.selectFrom("mail_outbox").selectAll().where("template", "in", ["new_order_alert", "new_booking_alert"]).orderBy("created_at").execute();

describe("the owner's alerts on WhatsApp", () => {
  it("each new order writes one alert with it, sent once to the owner's number with its reference, customer, total and how it is paid", async () => {
    await admin.messaging.updateSettings(on());
    const { caller } = await customer();
    await caller.cart.add({ productId });
    const order = await placeOrder(caller);
    const { total } = await db.kysely.selectFrom("orders").select("total").where("reference", "=", order.reference).executeTakeFirstOrThrow();
    const rows = await alertRows();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ template: "new_order_alert", channel: "whatsapp", recipient: "orders@ourworld.test", user_id: null });
    // Beside the shop's own new-order mail, which still goes.
    expect(await db.kysely.selectFrom("mail_outbox").select("id").where("template", "=", "new_order").execute()).toHaveLength(1);

    await drainOutbox(await deps());
    const sent = fake.sent.filter((message) => message.template === "new_order_alert");
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      to: OWNER.slice(1),
      parameters: [order.reference, "Thandi Nkosi", formatRand(total), messages.whatsapp.howPaid("bank_transfer", true)],
    });
    expect(fake.refused).toEqual([]);
    await drainOutbox(await deps());
    expect(fake.sent.filter((message) => message.template === "new_order_alert")).toHaveLength(1);
    expect(smtp.received.filter((mail) => mail.subject.startsWith("WhatsApp alert"))).toEqual([]);
  });

  it("writes nothing while the alerts are off, WhatsApp is off or incomplete, or nothing is saved", async () => {
    const { caller } = await customer();
    for (const values of [on({ ownerAlerts: false }), on({ enabled: false }), on({ accessToken: "" })]) {
      await db.kysely.deleteFrom("whatsapp_settings").where("id", "=", true).execute();
      await admin.messaging.updateSettings(values);
      await caller.cart.add({ productId });
      await placeOrder(caller);
    }
    await db.kysely.deleteFrom("whatsapp_settings").where("id", "=", true).execute();
    await caller.cart.add({ productId });
    await placeOrder(caller);
    expect(await alertRows()).toEqual([]);
    expect(await db.kysely.selectFrom("mail_outbox").select("id").where("template", "=", "new_order").execute()).toHaveLength(4);
  });

  it("each new booking writes its own alert with the service, its day and time, the customer and the order", async () => {
    await admin.messaging.updateSettings(on());
    const categoryId = (await db.kysely.selectFrom("categories").select("id").limit(1).executeTakeFirstOrThrow()).id;
    const serviceId = (await db.kysely.insertInto("products").values({ name: "Office deep clean", price: "900.00", category_id: categoryId, image_path: null }).returning("id").executeTakeFirstOrThrow()).id;
    await db.kysely.insertInto("bookable_services").values({ product_id: serviceId, duration_minutes: 120, capacity: 1, notice_hours: 0 }).execute();
    for (let weekday = 1; weekday <= 7; weekday++) {
      await db.kysely.insertInto("bookable_service_hours").values({ product_id: serviceId, weekday, opens: "08:00", closes: "18:00" }).execute();
    }
    const { caller } = await customer();
    const visitor = await callerAs(db, null);
    const [slot] = await visitor.bookings.freeSlots({ productId: serviceId, from: shopDay(1), days: 1 });
    await caller.cart.addBooking({ productId: serviceId, startsAt: slot!.startsAt.toISOString() });
    const order = await placeOrder(caller);

    const rows = await alertRows();
    expect(rows.map((row) => row.template)).toEqual(["new_order_alert", "new_booking_alert"]);
    await drainOutbox(await deps());
    const booking = fake.sent.find((message) => message.template === "new_booking_alert");
    expect(booking).toMatchObject({ to: OWNER.slice(1), parameters: ["Office deep clean", formatSlot(slot!.startsAt), "Thandi Nkosi", order.reference] });
  });

  it("an order made from an accepted quote writes its alert too, with the quoted total", async () => {
    await admin.messaging.updateSettings(on());
    const { caller } = await customer();
    const variantId = (await db.kysely.selectFrom("product_variants").select("id").where("product_id", "=", productId).executeTakeFirstOrThrow()).id;
    const { requestId } = await caller.quotes.request({ description: "120 branded shirts", items: [{ variantId, quantity: 120 }] });
    const { quoteId } = await admin.adminQuotes.saveDraft({
      requestId,
      validUntil: shopDay(30),
      terms: "50% on order.",
      note: "Thanks for asking.",
      lines: [{ kind: "custom", description: "Embroidery set-up", quantity: 1, unitPrice: "450" }],
    });
    await admin.adminQuotes.send({ quoteId });
    const { reference } = await caller.quotes.accept({ quoteId, purchaseOrder: "" });
    const rows = await alertRows();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.data).toMatchObject({ reference, customerName: "Thandi Nkosi" });
    await drainOutbox(await deps());
    expect(fake.sent.find((message) => message.template === "new_order_alert")?.parameters.slice(0, 3)).toEqual([reference, "Thandi Nkosi", formatRand("450")]);
  });

  it("an alert WhatsApp refuses for good is mailed to the shop's notice address, once", async () => {
    await admin.messaging.updateSettings(on());
    const { caller } = await customer();
    await caller.cart.add({ productId });
    const order = await placeOrder(caller);
    fake.mode = "refuse";
    await drainOutbox(await deps());
    await drainOutbox(await deps());
    const fallback = smtp.received.filter((mail) => mail.subject.startsWith("WhatsApp alert"));
    expect(fallback).toHaveLength(1);
    expect(fallback[0]!.rcptTo).toEqual(["orders@ourworld.test"]);
    expect(fallback[0]!.subject).toContain(order.reference);
    expect(fallback[0]!.text).toContain("Thandi Nkosi");
  });

  it("an alert written before the owner switched the alerts off is not sent to WhatsApp: it goes by e-mail", async () => {
    await admin.messaging.updateSettings(on());
    const { caller } = await customer();
    await caller.cart.add({ productId });
    await placeOrder(caller);
    await admin.messaging.updateSettings(on({ ownerAlerts: false }));
    await drainOutbox(await deps());
    expect(fake.sent.filter((message) => message.template === "new_order_alert")).toEqual([]);
    expect(smtp.received.filter((mail) => mail.subject.startsWith("WhatsApp alert"))).toHaveLength(1);
  });
});
