/**
 * The go-live checklist (issue 34) through the API: on a shop seeded with the demo values every
 * item is named; fixing one removes it; only admins may ask, and the answer holds item names and a
 * boolean, never a value of the environment. And what public pages get of the settings in
 * production: no demo contact detail, no stand-in officer.
 */
import { whatsappStateOf } from "@/server/messaging/whatsapp-settings";
import { whatsappEnvironmentFrom } from "@/server/platform/adapters/whatsapp/cloud-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { settingsFromEnv } from "@/server/settings/defaults";
import { DEMO_VALUES } from "@/server/settings/demo-values";
import { GO_LIVE_ITEMS } from "@/lib/constants";
import { goLiveItems, type GoLiveFacts } from "@/server/settings/go-live";
import { invoiceSettingsFromEnv } from "@/server/invoices/defaults";
import { trpcRefusal } from "../helpers/attempt";
import { callerAs, type CallerOptions } from "../helpers/browser";
import { createUser, freshDatabase, type TestDatabase, type TestUser } from "../helpers/database";
import { CONFIGURED_BANK } from "../helpers/shop-settings";

let db: TestDatabase;
let admin: TestUser;

beforeAll(async () => {
  db = await freshDatabase();
  admin = await createUser(db, { role: "admin", fullName: "Shop Owner" });
});

afterAll(async () => {
  await db?.close();
});

const asAdmin = (options: CallerOptions = {}) => callerAs(db, admin, { production: true, ...options });

/** The demo shop's facts, with `change` applied. */
function facts(change: Partial<GoLiveFacts> = {}): GoLiveFacts {
  return {
    shop: settingsFromEnv(),
    invoices: invoiceSettingsFromEnv(),
    collection: { enabled: true, address: DEMO_VALUES.address },
    payfast: { merchantId: "10000100", sandbox: true },
    siteUrlIsHttps: false,
    mailIsSent: false,
    whatsappIncomplete: true,
    ...change,
  };
}

describe("the checklist's rules", () => {
  it("names every item for the demo shop with collection on and PayFast in sandbox", () => {
    expect(goLiveItems(facts())).toEqual([...GO_LIVE_ITEMS]);
  });

  it("names nothing once every setting is the business's own", () => {
    const shop = {
      ...settingsFromEnv(),
      ...CONFIGURED_BANK,
      phone: "+27 21 555 0100",
      email: "orders@mokoena.co.za",
      address: "5 Long Street, Cape Town, 8001",
      informationOfficerName: "Naledi Mokoena",
      informationOfficerEmail: "naledi@mokoena.co.za",
    };
    const invoices = { vatRegistered: true, vatNumber: "4123456789", legalName: "Mokoena Trading (Pty) Ltd", legalAddress: "5 Long Street, Cape Town, 8001", invoicePrefix: "INV-" };
    const live = facts({ shop, invoices, collection: { enabled: true, address: "5 Long Street" }, payfast: { merchantId: "10000100", sandbox: false }, siteUrlIsHttps: true, mailIsSent: true, whatsappIncomplete: false });
    expect(goLiveItems(live)).toEqual([]);
    // Collection off and PayFast not set up are not to-dos: they are the owner's choice.
    expect(goLiveItems({ ...live, collection: { enabled: false, address: "" }, payfast: null })).toEqual([]);
    // A legal name changed but the address still the demo one is still an item.
    expect(goLiveItems({ ...live, invoices: { ...invoices, legalAddress: DEMO_VALUES.address } })).toEqual(["invoiceDetails"]);
  });
});

describe("WhatsApp's settings", () => {
  it("from the environment (nothing saved): an item when some are set but not all four (WhatsApp is then off), not when none or all are", () => {
    const all = { WHATSAPP_PHONE_NUMBER_ID: "106540352242922", WHATSAPP_ACCESS_TOKEN: "token", WHATSAPP_APP_SECRET: "secret", WHATSAPP_VERIFY_TOKEN: "verify-token-verify-token" };
    const state = (env: Partial<typeof all>) => whatsappStateOf(null, whatsappEnvironmentFrom(env));
    expect(state({})).toEqual({ source: "environment", settings: undefined, incomplete: false });
    expect(state(all)).toMatchObject({ source: "environment", incomplete: false, settings: { phoneNumberId: "106540352242922", accessToken: "token" } });
    for (const missing of Object.keys(all) as (keyof typeof all)[]) {
      const some = { ...all, [missing]: undefined };
      expect(state(some), missing).toEqual({ source: "environment", settings: undefined, incomplete: true });
    }
  });

  it("once saved, only the saved row counts: switched on without all four is an item, switched off never is", () => {
    const env = whatsappEnvironmentFrom({ WHATSAPP_PHONE_NUMBER_ID: "1", WHATSAPP_ACCESS_TOKEN: "t", WHATSAPP_APP_SECRET: "s", WHATSAPP_VERIFY_TOKEN: "verify-token-verify-token" });
    const saved = { enabled: true, phoneNumberId: "106540352242922", accessToken: "", appSecret: "secret", verifyToken: "verify-token-verify-token", ownerPhone: "", ownerAlerts: false };
    expect(whatsappStateOf(saved, env)).toEqual({ source: "saved", settings: undefined, incomplete: true });
    expect(whatsappStateOf({ ...saved, enabled: false }, env)).toEqual({ source: "saved", settings: undefined, incomplete: false });
    expect(whatsappStateOf({ ...saved, accessToken: "token" }, env)).toMatchObject({ source: "saved", incomplete: false, settings: { accessToken: "token" } });
  });
});

describe("settings.goLive", () => {
  it("lists what the seeded demo shop still has to change, and in production says so", async () => {
    const status = await (await asAdmin()).settings.goLive();
    expect(Object.keys(status).sort()).toEqual(["items", "production"]);
    expect(status).toEqual({ production: true, items: ["bank", "phone", "email", "address", "informationOfficer", "invoiceDetails", "siteUrl", "mail"] });
    expect((await (await callerAs(db, admin)).settings.goLive()).production).toBe(false);
  });

  it("drops an item the moment it is fixed, and adds collection and the PayFast sandbox when they are on", async () => {
    const caller = await asAdmin();
    const { values } = await caller.settings.get();
    await caller.settings.update({ ...values, phone: "+27 21 555 0100", unpaidOrderDays: values.unpaidOrderDays });
    expect((await caller.settings.goLive()).items).not.toContain("phone");

    const fulfilment = (await caller.fulfilment.settings()).settings;
    await caller.fulfilment.updateSettings({ ...fulfilment, collectionEnabled: true, collectionAddress: DEMO_VALUES.address });
    await caller.payments.updateSettings({ merchantId: "10000100", merchantKey: "46f0cd694581a", passphrase: "", clearPassphrase: false, sandbox: true });
    expect((await caller.settings.goLive()).items).toEqual(expect.arrayContaining(["collection", "payfastSandbox"]));

    await caller.fulfilment.updateSettings({ ...fulfilment, collectionEnabled: true, collectionAddress: "5 Long Street, Cape Town" });
    await caller.payments.updateSettings({ merchantId: "", merchantKey: "", passphrase: "", clearPassphrase: true, sandbox: false });
    const items = (await caller.settings.goLive()).items;
    expect(items).not.toContain("collection");
    expect(items).not.toContain("payfastSandbox");
    await caller.fulfilment.updateSettings(fulfilment);
  });

  it("reads SITE_URL and SMTP_URL on the server only: two booleans decide their items", async () => {
    const configured = await asAdmin({ siteUrlIsHttps: true, smtpUrl: "smtp://shop:secret@mail.example.test:587" });
    const status = await configured.settings.goLive();
    expect(status.items).not.toContain("siteUrl");
    expect(status.items).not.toContain("mail");
    expect(JSON.stringify(status)).not.toMatch(/secret|mail\.example|smtp:/);
  });

  it("answers admins only", async () => {
    const customer = await createUser(db);
    expect((await trpcRefusal((await callerAs(db, customer)).settings.goLive())).code).toBe("FORBIDDEN");
    expect((await trpcRefusal((await callerAs(db, null)).settings.goLive())).code).toBe("UNAUTHORIZED");
  });
});

describe("settings.published in production", () => {
  it("leaves out a demo contact detail and the stand-in officer; outside production the demo shop shows its details", async () => {
    const visitor = await callerAs(db, null, { production: true });
    const published = await visitor.settings.published();
    // The hours are the opening hours worded: data, never a placeholder.
    expect(published.contact).toMatchObject({ email: "", address: "", hours: "Mon–Fri 09:00–16:00" });
    expect(published.informationOfficer).toEqual({ name: "", email: "" });
    expect(JSON.stringify(published)).not.toContain(DEMO_VALUES.phone);

    const development = await (await callerAs(db, null)).settings.published();
    expect(development.contact.email).toBe(DEMO_VALUES.email);
    // The officer is no name in any mode: the privacy notice names the business instead.
    expect(development.informationOfficer.name).toBe("");
  });
});
