/**
 * The shop settings' tables beyond the row-level matrix (tests/db/rls-matrix.test.ts): one row
 * each, the checks that hold whoever writes, the stamps no caller can forge, the seed that never
 * overwrites the owner's edits, and the notification every server process drops its cache on.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ANON, runAs } from "@/server/db/as-caller";
import { seedOnce } from "@/server/db/seed";
import { settingsFromEnv } from "@/server/settings/defaults";
import { publicSettingsOf, readAdminSettings, readPublicSettings, saveSettings } from "@/server/settings/settings-queries";
import { CATALOGUE_CHANNEL } from "@/server/db/channels";
import { attempt } from "../helpers/attempt";
import { createUser, freshDatabase, type TestDatabase, type TestUser } from "../helpers/database";
import { configuredShopSettings } from "../helpers/shop-settings";

let db: TestDatabase;
let admin: TestUser;
let customer: TestUser;

beforeAll(async () => {
  db = await freshDatabase();
  admin = await createUser(db, { role: "admin", fullName: "Shop Owner" });
  customer = await createUser(db, { fullName: "Customer" });
});

afterAll(async () => {
  await db?.close();
});

describe("shop settings in the database", () => {
  it("a new shop starts with the environment's settings, which a visitor reads", async () => {
    const seen = await runAs(db.kysely, ANON, (trx) => readPublicSettings(trx));
    expect(seen).toEqual(publicSettingsOf(settingsFromEnv()));
  });

  it("the seed never overwrites what the owner saved", async () => {
    const saved = { ...configuredShopSettings(), phone: "+27 21 000 1111", ordersEmail: "owner@example.test" };
    await runAs(db.kysely, admin.identity, (trx) => saveSettings(trx, saved));
    await seedOnce(db.kysely, { demoUsers: false });
    const after = await runAs(db.kysely, admin.identity, (trx) => readAdminSettings(trx, configuredShopSettings()));
    expect(after.values).toEqual(saved);
  });

  it("holds one row per table", async () => {
    await expect(db.kysely.insertInto("shop_settings").values({ id: false, ...row() }).execute()).rejects.toThrow(/check/);
    await expect(db.kysely.insertInto("shop_private_settings").values({ orders_email: "a@example.test" }).execute()).rejects.toThrow(/duplicate key/);
    expect(await db.kysely.selectFrom("shop_settings").select("id").execute()).toEqual([{ id: true }]);
  });

  it.each([
    ["an account number with letters", { bank_account_number: "62812ABC" }],
    ["a five-digit account number", { bank_account_number: "12345" }],
    ["a five-digit branch code", { bank_branch_code: "25065" }],
    ["an unknown account type", { bank_account_type: "Gold" as "Cheque" }],
    ["91 days", { unpaid_order_days: 91 }],
    ["negative days", { unpaid_order_days: -1 }],
    ["an empty bank name", { bank_name: "  " }],
    ["an email without @", { contact_email: "hello.example.test" }],
  ])("refuses %s, even from an admin", async (_what, change) => {
    const result = await attempt(db, admin.identity, (t) => t.updateTable("shop_settings").set(change).where("id", "=", true).execute());
    expect(result.ok).toBe(false);
    expect(String(result.error)).toMatch(/check constraint/);
  });

  it("stamps when and by whom; no caller writes the stamps itself", async () => {
    const before = await db.kysely.selectFrom("shop_private_settings").select(["updated_at", "updated_by"]).executeTakeFirstOrThrow();
    await runAs(db.kysely, admin.identity, (trx) => saveSettings(trx, configuredShopSettings()));
    const after = await db.kysely.selectFrom("shop_private_settings").select(["updated_at", "updated_by"]).executeTakeFirstOrThrow();
    expect(after.updated_by).toBe(admin.id);
    expect(after.updated_at.getTime()).toBeGreaterThanOrEqual(before.updated_at.getTime());

    const forged = await attempt(db, admin.identity, (t) => t.updateTable("shop_private_settings").set({ updated_by: customer.id }).where("id", "=", true).execute());
    expect(String(forged.error)).toMatch(/permission denied/);
    const backdated = await attempt(db, admin.identity, (t) => t.updateTable("shop_settings").set({ updated_at: new Date(0) }).where("id", "=", true).execute());
    expect(String(backdated.error)).toMatch(/permission denied/);
  });

  it("a customer's write changes nothing, and a visitor cannot write at all", async () => {
    const before = await db.kysely.selectFrom("shop_settings").selectAll().executeTakeFirstOrThrow();
    const byCustomer = await attempt(db, customer.identity, (t) =>
      t.updateTable("shop_settings").set({ bank_account_number: "9999999999" }).where("id", "=", true).executeTakeFirst(),
    );
    expect(byCustomer.value?.numUpdatedRows).toBe(0n);
    const byVisitor = await attempt(db, ANON, (t) => t.updateTable("shop_settings").set({ bank_account_number: "9999999999" }).where("id", "=", true).execute());
    expect(String(byVisitor.error)).toMatch(/permission denied/);
    const ordersEmail = await attempt(db, customer.identity, (t) => t.selectFrom("shop_private_settings").select("orders_email").execute());
    expect(ordersEmail.value).toEqual([]);
    expect(await db.kysely.selectFrom("shop_settings").selectAll().executeTakeFirstOrThrow()).toEqual(before);
  });

  it("announces every change on the catalogue channel, so each server process drops its cached copy", async () => {
    const heard: string[] = [];
    const stop = await db.listen(CATALOGUE_CHANNEL, (payload) => heard.push(payload));
    try {
      await runAs(db.kysely, admin.identity, (trx) => saveSettings(trx, { ...configuredShopSettings(), address: "5 Long Street, Cape Town" }));
      await expect.poll(() => heard).toContain("shop_settings");
    } finally {
      await stop();
    }
  });
});

/** A complete published row. */
function row() {
  return {
    bank_account_name: "Our World Services (Pty) Ltd",
    bank_name: "First National Bank",
    bank_account_number: "62812345678",
    bank_branch_code: "250655",
    bank_account_type: "Cheque" as const,
    contact_phone: "+27 11 555 0142",
    contact_email: "hello@example.test",
    information_officer_name: "The owner",
    information_officer_email: "hello@example.test",
  };
}
