import fc from "fast-check";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FULL_TAX_INVOICE_ABOVE, VAT_RATE_PERCENT } from "@/lib/constants";
import { ANON, runAs, type DbIdentity, type Tx } from "@/server/db/as-caller";
import type { OrderStatus } from "@/server/db/schema";
import { insertMissingInvoiceSettings, saveInvoiceSettings } from "@/server/invoices/invoice-queries";
import type { InvoiceSettingsValues } from "@/server/invoices/schemas";
import { invoiceSnapshot, type InvoiceSnapshot } from "@/server/invoices/snapshot";
import { attempt, errorMessage } from "../helpers/attempt";
import { createUser, freshDatabase, type TestDatabase, type TestUser } from "../helpers/database";
import { placeTestOrder } from "../helpers/orders";

/**
 * Invoices and credit notes issued by SQL (issue 26, supabase/migrations/20261129000100_invoices.sql),
 * on PGlite and, with DATABASE_URL, on PostgreSQL (where the 50 payments really run at once).
 */

const REGISTERED: InvoiceSettingsValues = {
  vatRegistered: true,
  vatNumber: "4123456789",
  legalName: "Our World Services (Pty) Ltd",
  legalAddress: "12 Market Street, Johannesburg, 2001",
  invoicePrefix: "INV-",
};

let db: TestDatabase;
let customer: TestUser;
let other: TestUser;
let admin: TestUser;
const products = { pie: "", consulting: "", below: "", above: "" };

beforeAll(async () => {
  db = await freshDatabase({ seed: false });
  const k = db.kysely;
  const category = (await k.insertInto("categories").values({ name: "Risk Consulting & Recruitment" }).returning("id").executeTakeFirstOrThrow()).id;
  const product = async (name: string, price: string) =>
    (await k.insertInto("products").values({ name, price, category_id: category, image_path: null }).returning("id").executeTakeFirstOrThrow()).id;
  products.pie = await product("Steak & Kidney Pies (6-pack)", "150.00");
  products.consulting = await product("Workplace Risk Assessment", "3500.00");
  products.below = await product("Recruitment retainer", "4999.99");
  products.above = await product("Recruitment retainer plus", "5000.01");
  customer = await createUser(db, { fullName: "Thandi Nkosi" });
  other = await createUser(db, { fullName: "Sipho Dlamini" });
  admin = await createUser(db, { role: "admin", fullName: "Shop Owner" });
  await k.transaction().execute((trx) => insertMissingInvoiceSettings(trx, REGISTERED));
  await k
    .updateTable("profiles")
    .set({ invoice_company: "Nkosi Holdings (Pty) Ltd", invoice_address: "4 Long Street, Cape Town, 8001", invoice_vat_number: "4987654321" })
    .where("id", "=", customer.id)
    .execute();
});

afterAll(async () => {
  await db?.close();
});

function setStatus(id: string, status: OrderStatus, as: DbIdentity = admin.identity) {
  return runAs(db.kysely, as, (trx) => trx.updateTable("orders").set({ status }).where("id", "=", id).execute());
}

function documentsOf(orderId: string) {
  return db.kysely
    .selectFrom("invoices")
    .select(["id", "kind", "serial", "number", "credits_invoice_id", "total", "vat", "snapshot"])
    .where("order_id", "=", orderId)
    .orderBy("kind", "desc")
    .execute()
    .then((rows) => rows.map((row) => ({ ...row, serial: Number(row.serial), snapshot: invoiceSnapshot.parse(row.snapshot) as InvoiceSnapshot })));
}

async function lastSerial(kind: "invoice" | "credit_note") {
  const row = await db.kysely.selectFrom("invoice_counters").select("last_number").where("kind", "=", kind).executeTakeFirstOrThrow();
  return Number(row.last_number);
}

describe(`invoices (${process.env.DATABASE_URL ? "postgres" : "pglite"})`, () => {
  it("the database's VAT rate and full-invoice threshold are the app's constants", async () => {
    const { rows } = await sql<{ rate: string; above: string }>`select private.vat_rate_percent() as rate, private.full_tax_invoice_above() as above`.execute(db.kysely);
    expect(Number(rows[0]!.rate)).toBe(VAT_RATE_PERCENT);
    expect(Number(rows[0]!.above)).toBe(FULL_TAX_INVOICE_ABOVE);
  });

  it("an order made paid by an admin gets one tax invoice with a frozen snapshot; later changes alter nothing", async () => {
    const order = await placeTestOrder(db, customer, [products.pie, products.consulting]);
    expect(await documentsOf(order.id)).toEqual([]);
    const before = await lastSerial("invoice");
    await setStatus(order.id, "pending_delivery");
    const [invoice, ...rest] = await documentsOf(order.id);
    expect(rest).toEqual([]);
    expect(invoice!.kind).toBe("invoice");
    expect(invoice!.serial).toBe(before + 1);
    expect(invoice!.number).toBe(`INV-${String(before + 1).padStart(6, "0")}`);
    const s = invoice!.snapshot;
    expect(s.document).toBe("tax_invoice");
    expect(s.full).toBe(false); // R3,650: abridged will do
    expect(s.seller).toEqual({ name: REGISTERED.legalName, address: REGISTERED.legalAddress, vatNumber: "4123456789" });
    expect(s.buyer).toMatchObject({ name: "Thandi Nkosi", company: "Nkosi Holdings (Pty) Ltd", vatNumber: "4987654321" });
    expect(s.total).toBe("3650.00");
    // 150 × 15/115 = 19.565… → 19.57; 3500 × 15/115 = 456.521… → 456.52; total 3650 × 15/115 = 476.086… → 476.09.
    expect(s.vat).toBe("476.09");
    expect(s.exclusive).toBe("3173.91");
    expect(s.lines.map((l) => [l.description, l.quantity, l.amount, l.vat]).sort()).toEqual([
      ["Steak & Kidney Pies (6-pack)", 1, "150.00", "19.57"],
      ["Workplace Risk Assessment", 1, "3500.00", "456.52"],
    ]);

    // Moving between the paid statuses issues nothing more.
    await setStatus(order.id, "complete");
    expect(await documentsOf(order.id)).toHaveLength(1);

    // Prices, names and settings change: the issued invoice does not.
    await db.kysely.updateTable("products").set({ price: "999.00", name: "Renamed" }).where("id", "=", products.pie).execute();
    await db.kysely.updateTable("profiles").set({ full_name: "Someone Else", invoice_company: "" }).where("id", "=", customer.id).execute();
    await db.kysely.transaction().execute((trx) => saveInvoiceSettings(trx, { ...REGISTERED, legalName: "New Name Ltd", invoicePrefix: "OWS-" }));
    expect((await documentsOf(order.id))[0]!.snapshot).toEqual(s);
    await db.kysely.updateTable("products").set({ price: "150.00", name: "Steak & Kidney Pies (6-pack)" }).where("id", "=", products.pie).execute();
    await db.kysely.updateTable("profiles").set({ full_name: "Thandi Nkosi", invoice_company: "Nkosi Holdings (Pty) Ltd" }).where("id", "=", customer.id).execute();
    await db.kysely.transaction().execute((trx) => saveInvoiceSettings(trx, REGISTERED));
  });

  it("50 orders made paid at once get 50 consecutive numbers, no gaps and no duplicates", async () => {
    const orders = [];
    for (let i = 0; i < 50; i++) orders.push(await placeTestOrder(db, i % 2 ? customer : other, [products.pie]));
    const before = await lastSerial("invoice");
    await Promise.all(orders.map((order) => setStatus(order.id, "pending_delivery")));
    const serials = (await Promise.all(orders.map((order) => documentsOf(order.id)))).map((docs) => {
      expect(docs).toHaveLength(1);
      return docs[0]!.serial;
    });
    expect([...serials].sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => before + 1 + i));
    expect(await lastSerial("invoice")).toBe(before + 50);
  });

  it("a rolled-back status change leaves no gap: the next payment, waiting on it, gets its number", async () => {
    const [rolledBack, next] = [await placeTestOrder(db, customer, [products.pie]), await placeTestOrder(db, other, [products.pie])];
    const before = await lastSerial("invoice");
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let updated!: () => void;
    const hasUpdated = new Promise<void>((resolve) => (updated = resolve));
    const first = runAs(db.kysely, admin.identity, async (trx) => {
      await trx.updateTable("orders").set({ status: "pending_delivery" }).where("id", "=", rolledBack.id).execute();
      // This transaction holds number before + 1 now.
      expect(Number((await trx.selectFrom("invoices").select("serial").where("order_id", "=", rolledBack.id).executeTakeFirstOrThrow()).serial)).toBe(before + 1);
      updated();
      await gate;
      throw new Error("rolled back on purpose");
    }).catch((error: unknown) => errorMessage(error));
    await hasUpdated;
    // Started while the first still holds the counter: it waits (PostgreSQL: the counter row's lock; PGlite: the one connection).
    const second = setStatus(next.id, "pending_delivery");
    await new Promise((resolve) => setTimeout(resolve, 100));
    release();
    expect(await first).toBe("rolled back on purpose");
    await second;
    expect(await documentsOf(rolledBack.id)).toEqual([]);
    expect((await documentsOf(next.id))[0]!.serial).toBe(before + 1);
    expect(await lastSerial("invoice")).toBe(before + 1);
  });

  it("R4,999.99 gets an abridged tax invoice and R5,000.01 a full one with the buyer's details", async () => {
    const below = await placeTestOrder(db, customer, [products.below]);
    const above = await placeTestOrder(db, customer, [products.above]);
    await setStatus(below.id, "pending_delivery");
    await setStatus(above.id, "complete");
    const [b] = await documentsOf(below.id);
    const [a] = await documentsOf(above.id);
    expect(b!.snapshot).toMatchObject({ document: "tax_invoice", full: false, total: "4999.99", vat: "652.17", exclusive: "4347.82" });
    expect(a!.snapshot).toMatchObject({ document: "tax_invoice", full: true, total: "5000.01", vat: "652.18", exclusive: "4347.83" });
    expect(a!.snapshot.buyer).toEqual({
      name: "Thandi Nkosi",
      email: customer.email,
      company: "Nkosi Holdings (Pty) Ltd",
      address: "4 Long Street, Cape Town, 8001",
      vatNumber: "4987654321",
    });
  });

  it("a cancelled paid order gets a credit note that references its invoice; a cancelled unpaid one gets nothing", async () => {
    const paid = await placeTestOrder(db, customer, [products.consulting]);
    const unpaid = await placeTestOrder(db, customer, [products.pie]);
    await setStatus(paid.id, "pending_delivery");
    const beforeCredit = await lastSerial("credit_note");
    await setStatus(paid.id, "cancelled");
    await setStatus(unpaid.id, "cancelled");
    expect(await documentsOf(unpaid.id)).toEqual([]);
    const [invoice, credit] = await documentsOf(paid.id);
    expect(credit).toMatchObject({ kind: "credit_note", serial: beforeCredit + 1, number: `INV-CN${String(beforeCredit + 1).padStart(6, "0")}`, credits_invoice_id: invoice!.id });
    expect(credit!.snapshot).toMatchObject({ document: "credit_note", total: "3500.00", vat: invoice!.snapshot.vat, credits: { number: invoice!.number } });
    // The customer's status mails link to each document.
    const mails = await db.kysely.selectFrom("mail_outbox").select("data").where("template", "=", "status_changed").where("recipient", "=", customer.email).execute();
    const linked = mails.map((m) => (m.data as { document?: { id: string } }).document?.id).filter(Boolean);
    expect(linked).toEqual(expect.arrayContaining([invoice!.id, credit!.id]));
    // Paid again after the credit: a new invoice; cancelled again: its own credit note.
    await setStatus(paid.id, "pending_delivery");
    await setStatus(paid.id, "cancelled");
    expect((await documentsOf(paid.id)).map((d) => d.kind).sort()).toEqual(["credit_note", "credit_note", "invoice", "invoice"]);
  });

  it("a shop not registered for VAT issues a plain invoice without VAT", async () => {
    await db.kysely.transaction().execute((trx) => saveInvoiceSettings(trx, { ...REGISTERED, vatRegistered: false, vatNumber: "" }));
    try {
      const order = await placeTestOrder(db, other, [products.above]);
      await setStatus(order.id, "pending_delivery");
      const [invoice] = await documentsOf(order.id);
      expect(invoice!.snapshot).toMatchObject({ document: "invoice", vatRate: null, vat: "0.00", total: "5000.01", seller: { vatNumber: null } });
      expect(invoice!.snapshot.lines[0]!.vat).toBeUndefined();
    } finally {
      await db.kysely.transaction().execute((trx) => saveInvoiceSettings(trx, REGISTERED));
    }
  });

  it("nobody can change or delete an issued invoice: no privilege for the API roles, and a trigger for the owner", async () => {
    const order = await placeTestOrder(db, customer, [products.pie]);
    await setStatus(order.id, "pending_delivery");
    const [invoice] = await documentsOf(order.id);
    for (const who of [admin.identity, customer.identity, ANON]) {
      const update = await attempt(db, who, (t) => t.updateTable("invoices").set({ number: "FORGED" }).where("id", "=", invoice!.id).execute());
      expect(update.ok).toBe(false);
      const remove = await attempt(db, who, (t) => t.deleteFrom("invoices").where("id", "=", invoice!.id).execute());
      expect(remove.ok).toBe(false);
    }
    // The migrating connection bypasses RLS and privileges; the trigger still refuses.
    await expect(db.kysely.updateTable("invoices").set({ total: "1.00" }).where("id", "=", invoice!.id).execute()).rejects.toThrow("invoice_immutable");
    await expect(db.kysely.deleteFrom("invoices").where("id", "=", invoice!.id).execute()).rejects.toThrow("invoice_immutable");
    await expect(sql`truncate public.invoices cascade`.execute(db.kysely)).rejects.toThrow("invoice_immutable");
    expect((await documentsOf(order.id))[0]).toEqual(invoice);
  });

  it("the retention purge takes an invoice with its order after 5 years, and only then", async () => {
    const order = await placeTestOrder(db, other, [products.pie]);
    await setStatus(order.id, "pending_delivery");
    await db.kysely.updateTable("orders").set({ created_at: sql<Date>`now() - interval '5 years 1 day'` }).where("id", "=", order.id).execute();
    await sql`select * from public.purge_expired_records()`.execute(db.kysely);
    expect(await documentsOf(order.id)).toEqual([]);
  });
});

describe("who may read invoices and record downloads", () => {
  let invoiceId = "";
  beforeAll(async () => {
    const order = await placeTestOrder(db, customer, [products.pie]);
    await setStatus(order.id, "pending_delivery");
    invoiceId = (await documentsOf(order.id))[0]!.id;
  });

  const canRead = (who: DbIdentity) => attempt(db, who, async (t) => (await t.selectFrom("invoices").select("id").where("id", "=", invoiceId).execute()).length > 0);
  const download = (who: DbIdentity) => runAs(db.kysely, who, (t: Tx) => sql<{ n: number }>`select public.record_invoice_download(${invoiceId}::uuid) as n`.execute(t)).then((r) => Number(r.rows[0]!.n));

  it("the order's customer and admins read it; another customer and visitors do not", async () => {
    expect((await canRead(customer.identity)).value).toBe(true);
    expect((await canRead(admin.identity)).value).toBe(true);
    expect((await canRead(other.identity)).value).toBe(false);
    expect((await canRead(ANON)).ok && (await canRead(ANON)).value).toBeFalsy();
  });

  it("downloads are counted for the customer and admins (the second is a copy); anyone else is refused and counts nothing", async () => {
    expect(await download(customer.identity)).toBe(1);
    expect(await download(admin.identity)).toBe(2);
    await expect(download(other.identity)).rejects.toThrow("invoice_not_found");
    await expect(download(ANON)).rejects.toThrow();
    expect(await download(customer.identity)).toBe(3);
    const rows = await db.kysely.selectFrom("invoice_downloads").select("downloaded_by").where("invoice_id", "=", invoiceId).execute();
    expect(rows.map((r) => r.downloaded_by)).toEqual([customer.id, admin.id, customer.id]);
  });

  it("nobody writes downloads, counters or invoices directly; settings are admins' only", async () => {
    for (const who of [customer.identity, admin.identity, ANON]) {
      expect((await attempt(db, who, (t) => t.insertInto("invoice_downloads").values({ invoice_id: invoiceId, downloaded_by: null }).execute())).ok).toBe(false);
      expect((await attempt(db, who, (t) => t.updateTable("invoice_counters").set({ last_number: "0" }).where("kind", "=", "invoice").execute())).ok).toBe(false);
    }
    const settingsVisible = async (who: DbIdentity) => (await attempt(db, who, async (t) => (await t.selectFrom("invoice_settings").select("vat_number").execute()).length)).value ?? 0;
    expect(await settingsVisible(admin.identity)).toBe(1);
    expect(await settingsVisible(customer.identity)).toBe(0);
    const change = (who: DbIdentity) =>
      attempt(db, who, async (t) => Number((await t.updateTable("invoice_settings").set({ legal_name: "Hijacked" }).where("id", "=", true).executeTakeFirst()).numUpdatedRows));
    expect((await change(admin.identity)).value).toBe(1);
    expect((await change(customer.identity)).value ?? 0).toBe(0);
    // A customer edits only their own invoice details.
    const own = await attempt(db, customer.identity, async (t) => Number((await t.updateTable("profiles").set({ invoice_company: "Mine" }).where("id", "=", customer.id).executeTakeFirst()).numUpdatedRows));
    expect(own.value).toBe(1);
    const theirs = await attempt(db, customer.identity, async (t) => Number((await t.updateTable("profiles").set({ invoice_company: "Theirs" }).where("id", "=", other.id).executeTakeFirst()).numUpdatedRows));
    expect(theirs.value).toBe(0);
  });
});

describe("VAT per line and in total (property)", () => {
  /** VAT of a VAT-inclusive amount in cents, rounded half up: cents × 15 / 115. */
  const vatCents = (cents: bigint) => (cents * 15n * 2n + 115n) / (115n * 2n);

  it("agree to the cent for any basket: lines add up to the total's VAT, each within a cent of exact", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.bigInt({ min: 1n, max: 99_999_999n }), { minLength: 1, maxLength: 25 }), async (cents) => {
        const amounts = cents.map((c) => `${c / 100n}.${String(c % 100n).padStart(2, "0")}`);
        const { rows } = await sql<{ vats: string[] }>`select private.vat_allocation(${amounts}::numeric[], ${VAT_RATE_PERCENT}) as vats`.execute(db.kysely);
        const lineVats = rows[0]!.vats.map((v) => BigInt(Math.round(Number(v) * 100)));
        expect(lineVats).toHaveLength(cents.length);
        const total = cents.reduce((a, b) => a + b, 0n);
        expect(lineVats.reduce((a, b) => a + b, 0n)).toBe(vatCents(total));
        cents.forEach((c, i) => {
          // |line VAT − c × 15/115| < 1 cent, in whole numbers: |vat × 115 − c × 15| < 115.
          const diff = lineVats[i]! * 115n - c * 15n;
          expect(diff < 115n && diff > -115n).toBe(true);
        });
      }),
      { numRuns: 150 },
    );
  });
});
