/**
 * Shop settings through the API (docs/architecture.md#shop-settings): admins read and save them, nobody else; a bad
 * input changes nothing and says why; the demo bank account takes no orders in production; and
 * what the footer and checkout show changes the moment an admin saves.
 */
import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { messages } from "@/lib/messages";
import { shopSettingsFor } from "@/server/settings/shop-settings";
import { DEMO_BANK } from "@/server/settings/bank-transfer";
import { settingsFromEnv } from "@/server/settings/defaults";
import type { ShopSettingsInput, ShopSettingsValues } from "@/server/settings/schemas";
import { listObjectFiles } from "@/server/platform/adapters/local/local-storage";
import { trpcRefusal } from "../helpers/attempt";
import { callerAs, testStorageRoot, type Caller } from "../helpers/browser";
import { createUser, freshDatabase, type TestDatabase, type TestUser } from "../helpers/database";
import { fileOf, makePng } from "../helpers/images";
import { CONFIGURED_BANK, configuredShopSettings } from "../helpers/shop-settings";
import { randomReference } from "../helpers/orders";

const m = messages.settings;
let db: TestDatabase;
let admin: TestUser;
let customer: TestUser;
let productId: string;

beforeAll(async () => {
  db = await freshDatabase();
  admin = await createUser(db, { role: "admin", fullName: "Shop Owner" });
  customer = await createUser(db, { fullName: "Lindiwe Customer" });
  productId = (await db.kysely.selectFrom("products").select("id").where("available", "=", true).limit(1).executeTakeFirstOrThrow()).id;
});

afterAll(async () => {
  await db?.close();
});

/** Both settings rows as stored, to show that a refused call changed nothing. */
async function storedRows() {
  return {
    published: await db.kysely.selectFrom("shop_settings").selectAll().execute(),
    restricted: await db.kysely.selectFrom("shop_private_settings").selectAll().execute(),
  };
}

/** Saves `values` through the admin's own procedure. */
async function saveAsAdmin(values: ShopSettingsInput) {
  return (await callerAs(db, admin)).settings.update(values);
}

/** A checkout form paying with `reference` (the customer's reserved one, or any for a refused call). */
function orderForm(reference: string | null = randomReference()) {
  const form = new FormData();
  form.set("proof", fileOf(makePng(), "proof.png"));
  form.set("reference", reference ?? randomReference());
  form.set("idempotencyKey", randomUUID());
  return form;
}

describe("settings.get and settings.update", () => {
  beforeEach(async () => {
    await saveAsAdmin(settingsFromEnv());
  });

  it("an admin reads every setting, the order-notice address too, and when they were last saved", async () => {
    const settings = await (await callerAs(db, admin)).settings.get();
    expect(settings.values).toEqual(settingsFromEnv());
    expect(settings.updatedBy).toBe("Shop Owner");
    expect(settings.updatedAt).toBeInstanceOf(Date);
  });

  it("an admin saves them; what a person types is stored as the bank prints it", async () => {
    const caller = await callerAs(db, admin);
    const changed: ShopSettingsInput = {
      ...settingsFromEnv(),
      bankName: "  Standard Bank ",
      bankAccountNumber: "0012 3456 789",
      bankBranchCode: "051-001",
      bankAccountType: "Current",
      address: "",
      ordersEmail: "orders@example.test",
      informationOfficerName: "Thandi Mokoena",
      unpaidOrderDays: 0,
    };
    const result = await caller.settings.update(changed);
    expect(result.message).toBe(m.saved);
    const expected: ShopSettingsValues = { ...settingsFromEnv(), bankName: "Standard Bank", bankAccountNumber: "00123456789", bankBranchCode: "051001", bankAccountType: "Current", address: "", ordersEmail: "orders@example.test", informationOfficerName: "Thandi Mokoena", unpaidOrderDays: 0 };
    expect(result.values).toEqual(expected);
    expect((await caller.settings.get()).values).toEqual(expected);
  });

  it("a customer is refused (FORBIDDEN) and a visitor too (UNAUTHORIZED), and nothing changes", async () => {
    const before = await storedRows();
    const attempt = { ...settingsFromEnv(), bankAccountNumber: "9999999999" };
    for (const [who, code] of [
      [customer, "FORBIDDEN"],
      [null, "UNAUTHORIZED"],
    ] as const) {
      const caller = await callerAs(db, who);
      expect((await trpcRefusal(caller.settings.get())).code).toBe(code);
      expect((await trpcRefusal(caller.settings.update(attempt))).code).toBe(code);
    }
    expect(await storedRows()).toEqual(before);
  });

  it.each<[string, Partial<Record<keyof ShopSettingsValues, unknown>>, string]>([
    ["letters in the account number", { bankAccountNumber: "62812ABC" }, m.accountNumberInvalid],
    ["a five-digit account number", { bankAccountNumber: "12345" }, m.accountNumberInvalid],
    ["a seventeen-digit account number", { bankAccountNumber: "12345678901234567" }, m.accountNumberInvalid],
    ["a five-digit branch code", { bankBranchCode: "25065" }, m.branchCodeInvalid],
    ["an unknown account type", { bankAccountType: "Gold" }, m.accountTypeInvalid],
    ["no bank name", { bankName: "   " }, m.required("The bank's name")],
    ["a bank name too long", { bankName: "B".repeat(101) }, m.tooLong("The bank's name", 100)],
    ["an order-notice address that is no address", { ordersEmail: "orders.example.test" }, m.emailInvalid("for order notices")],
    ["no information officer's email", { informationOfficerEmail: "" }, m.emailRequired("for the information officer")],
    ["a phone number of letters", { phone: "call us" }, m.phoneInvalid],
    ["91 days", { unpaidOrderDays: 91 }, m.unpaidDaysInvalid],
    ["half a day", { unpaidOrderDays: 1.5 }, m.unpaidDaysInvalid],
    ["days as text", { unpaidOrderDays: "7" }, m.unpaidDaysInvalid],
  ])("refuses %s with a clear message and changes nothing", async (_what, change, message) => {
    const before = await storedRows();
    const caller = await callerAs(db, admin);
    const refusal = await trpcRefusal(caller.settings.update({ ...settingsFromEnv(), ...change } as ShopSettingsInput));
    expect([refusal.code, refusal.message]).toEqual(["BAD_REQUEST", message]);
    expect(await storedRows()).toEqual(before);
  });
});

describe("the form's rules and the tables' checks agree", () => {
  /** A value for a field: mostly the valid one (so some inputs pass), else what a person or a script might type. */
  const near = (valid: string) =>
    fc.oneof(
      { arbitrary: fc.constant(valid), weight: 12 },
      fc.string({ maxLength: 40 }),
      fc.string({ unit: "grapheme", maxLength: 120 }),
      fc.constantFrom("", " ", "\t\n", "0".repeat(17), "12 34 56", "a@b", "x@y.za", "+27 (0)11 555-0142", "😀".repeat(60), " Savings"),
      fc.stringMatching(/^[0-9 -]{4,20}$/),
    );

  it("whatever an admin sends is refused with a message or stored: the database never refuses what the form accepts", async () => {
    const base = configuredShopSettings();
    const caller = await callerAs(db, admin);
    const seen = { saved: 0, refused: 0 };
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          bankAccountName: near(base.bankAccountName),
          bankAccountNumber: near(base.bankAccountNumber),
          bankBranchCode: near(base.bankBranchCode),
          bankAccountType: near(base.bankAccountType),
          phone: near(base.phone),
          email: near(base.email),
          address: near(base.address),
          informationOfficerName: near(base.informationOfficerName),
          ordersEmail: near(base.ordersEmail),
          unpaidOrderDays: fc.oneof({ arbitrary: fc.integer({ min: -5, max: 100 }), weight: 6 }, fc.double()),
        }),
        async (change) => {
          const outcome = await caller.settings.update({ ...base, ...change } as ShopSettingsInput).then(
            () => "saved",
            (error: { code?: string }) => error.code,
          );
          expect(["saved", "BAD_REQUEST"]).toContain(outcome);
          seen[outcome === "saved" ? "saved" : "refused"]++;
        },
      ),
      { numRuns: 200 },
    );
    expect(seen.saved).toBeGreaterThan(0);
    expect(seen.refused).toBeGreaterThan(0);
  });
});

describe("the demo bank account", () => {
  beforeEach(async () => {
    await saveAsAdmin({ ...settingsFromEnv(), bankAccountNumber: DEMO_BANK.accountNumber });
  });

  async function customerWithCart(options: { production: boolean }): Promise<Caller> {
    const caller = await callerAs(db, await createUser(db), options);
    await caller.cart.add({ productId });
    return caller;
  }

  it("in production: checkout shows no account and takes no order, and the admins are told", async () => {
    const caller = await customerWithCart({ production: true });
    const start = await caller.checkout.start();
    expect(start).toMatchObject({ bankTransfer: "not_set_up", bank: null });
    expect(start.reference).toMatch(/^ORD-\d{1,6}$/);

    const filesBefore = (await listObjectFiles(testStorageRoot(db))).length;
    const refusal = await trpcRefusal(caller.checkout.placeOrder(orderForm()));
    expect([refusal.code, refusal.message]).toEqual(["PRECONDITION_FAILED", messages.checkout.bankTransferNotSetUp]);
    expect((await caller.cart.list()).lines).toHaveLength(1);
    expect(await caller.orders.mine()).toEqual([]);
    expect((await listObjectFiles(testStorageRoot(db))).length).toBe(filesBefore);

    expect((await (await callerAs(db, admin, { production: true })).settings.get()).bankTransfer).toBe("not_set_up");
  });

  it("in development: it works, labelled as a demo", async () => {
    const caller = await customerWithCart({ production: false });
    const start = await caller.checkout.start();
    expect(start).toMatchObject({ bankTransfer: "demo", bank: { accountNumber: DEMO_BANK.accountNumber } });
    const placed = await caller.checkout.placeOrder(orderForm(start.reference));
    expect(placed.message).toBe(messages.checkout.success(placed.reference));
    expect((await (await callerAs(db, admin)).settings.get()).bankTransfer).toBe("demo");
  });

  it("in production, once the owner enters the real account, checkout takes orders at once", async () => {
    const caller = await customerWithCart({ production: true });
    expect((await caller.checkout.start()).bankTransfer).toBe("not_set_up");
    await saveAsAdmin(configuredShopSettings());
    const start = await caller.checkout.start();
    expect(start).toMatchObject({ bankTransfer: "ready", bank: { accountNumber: CONFIGURED_BANK.bankAccountNumber, bankName: CONFIGURED_BANK.bankName } });
    const placed = await caller.checkout.placeOrder(orderForm(start.reference));
    expect(placed.message).toBe(messages.checkout.success(placed.reference));
  });
});

describe("what the shop shows", () => {
  it("the footer's and checkout's values change right after a save (the cached read is dropped)", async () => {
    await saveAsAdmin(configuredShopSettings());
    const settings = await shopSettingsFor(db);
    const shown = await settings.published();
    // Kept: the same read again, not a new one from the database.
    expect(await settings.published()).toBe(shown);

    const shopper = await callerAs(db, customer);
    await shopper.cart.add({ productId });
    await saveAsAdmin({ ...configuredShopSettings(), phone: "+27 31 555 0199", bankAccountNumber: "4060123456" });
    expect((await settings.published()).contact.phone).toBe("+27 31 555 0199");
    expect((await shopper.checkout.start()).bank?.accountNumber).toBe("4060123456");
  });

  it("a change made through another connection reaches the cache too (NOTIFY)", async () => {
    const settings = await shopSettingsFor(db);
    await settings.published();
    await db.kysely.updateTable("opening_hours").set({ open: true, opens: "07:00", closes: "19:00" }).execute();
    await expect.poll(async () => (await settings.published()).contact.hours).toBe("Mon–Sun 07:00–19:00");
  });

  it("while a shop has no settings row yet (Supabase without its seed), the environment's values show and the first save creates it", async () => {
    await db.kysely.deleteFrom("shop_settings").execute();
    await db.kysely.deleteFrom("shop_private_settings").execute();
    const settings = await shopSettingsFor(db);
    await expect.poll(async () => (await settings.published()).bank.accountNumber).toBe(settingsFromEnv().bankAccountNumber);
    const admins = await callerAs(db, admin);
    expect((await admins.settings.get()).updatedAt).toBeNull();
    await admins.settings.update(configuredShopSettings());
    expect((await settings.published()).bank.accountNumber).toBe(CONFIGURED_BANK.bankAccountNumber);
    expect((await storedRows()).restricted).toHaveLength(1);
  });
});
