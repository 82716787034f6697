/**
 * The system under test of tests/api/model.test.ts: one database for the file (PGlite, or a
 * PostgreSQL database under DATABASE_URL), and per run a clean slate in it (no orders, carts,
 * accounts or proofs), a few products of its own, two customers each in their own browser (real
 * session cookies, so signing out and in is real), an admin and a visitor. Everything is reached
 * through tRPC's createCaller.
 */
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import bcrypt from "bcryptjs";
import { sql } from "kysely";
import { catalogueFor } from "@/server/catalogue/catalogue";
import { localFileUrl } from "@/server/ports/storage";
import { settingsFromEnv } from "@/server/settings/defaults";
import type { RequestLimits, SignInLimits } from "@/server/security/rate-limit";
import { callerAs, freshRequestLimits, freshSignInLimits, TestBrowser, testStorageRoot, type Caller } from "../browser";
import { createUser, type TestDatabase } from "../database";
import type { FakeWhatsApp } from "../fake-whatsapp";
import { CUSTOMERS, NAME_PRICE_CENTS, SIZES, toCents, toRands, type ModelProduct, type ShopModel } from "./shop-model";

export interface RealShop {
  db: TestDatabase;
  /** One browser per customer: every customer call goes through its cookies. */
  browsers: TestBrowser[];
  /** Each browser's rate limits (their own scope), for the "many tries" step to count into. */
  limits: { signIn: SignInLimits; request: RequestLimits }[];
  /**
   * A request of each customer already past its sign-in check (built while the account still
   * existed): what another tab's call looks like when the account is deleted under it.
   */
  inFlight: (Caller | null)[];
  admin: Caller;
  visitor: Caller;
  categoryId: string;
  /**
   * When each product was unavailable (from, to; `to` null while it still is), by product id,
   * as the database's clock saw the admin's change commit: the invariant on order lines needs
   * the history, which the shop itself does not keep.
   */
  unavailable: Map<string, { from: Date; to: Date | null }[]>;
  /** A fake WhatsApp Cloud API (the file's one): the browsers' WhatsApp settings, its log and signer. */
  whatsapp: FakeWhatsApp;
}

/** A password hash at bcrypt's lowest cost: the sign-in path is the same, only faster. */
export const PASSWORD = "model-password-2026";
const PASSWORD_HASH = bcrypt.hashSync(PASSWORD, 4);
/** The category of the model's own products (the seeded catalogue is left alone). */
export const MODEL_CATEGORY = "Model shop";

let runs = 0;

/** The database's own clock (order timestamps come from it, not from Node's). */
export async function databaseNow(db: TestDatabase): Promise<Date> {
  const { rows } = await sql<{ now: Date }>`select clock_timestamp() as now`.execute(db.kysely);
  return new Date(rows[0]!.now);
}

async function customerAccount(db: TestDatabase, run: number, index: number) {
  const email = `model-${run}-${index}-${randomUUID().slice(0, 6)}@example.test`;
  const { id } = await createUser(db, { email, fullName: `Model Customer ${index}`, passwordHash: PASSWORD_HASH });
  return { id, email };
}

/**
 * Empties what earlier runs left (privileged, as a test's set-up): orders, reservations, carts,
 * accounts, proofs (rows and files), the model's products, contact messages and the outbox. The seeded catalogue
 * stays; the model never touches it.
 */
async function clearEarlierRuns(db: TestDatabase) {
  await sql`delete from public.orders`.execute(db.kysely);
  await sql`delete from public.quote_requests`.execute(db.kysely);
  await sql`delete from public.checkout_references`.execute(db.kysely);
  await sql`delete from auth.users`.execute(db.kysely);
  await sql`delete from public.products p using public.categories c where c.id = p.category_id and c.name = ${MODEL_CATEGORY}`.execute(db.kysely);
  await sql`delete from storage.objects where bucket_id = 'payments'`.execute(db.kysely);
  await sql`delete from public.contact_messages`.execute(db.kysely);
  await sql`delete from public.mail_outbox`.execute(db.kysely);
  await sql`delete from public.messaging_consents`.execute(db.kysely);
  fs.rmSync(path.join(testStorageRoot(db), "payments"), { recursive: true, force: true });
}

/** The model category, made once per database. */
async function modelCategory(db: TestDatabase): Promise<string> {
  const existing = await db.kysely.selectFrom("categories").select("id").where("name", "=", MODEL_CATEGORY).executeTakeFirst();
  if (existing) return existing.id;
  return (await db.kysely.insertInto("categories").values({ name: MODEL_CATEGORY }).returning("id").executeTakeFirstOrThrow()).id;
}

/**
 * The product with options (issue 37): sizes S and L, and an optional name to add for R5, set up
 * as save_product_options and the personalisation editor leave them (privileged, as a set-up).
 */
async function optionsProduct(db: TestDatabase, run: number, categoryId: string): Promise<ModelProduct> {
  const name = `Model ${run} shirt`;
  const { id } = await db.kysely.insertInto("products").values({ name, description: "", price: "120.00", category_id: categoryId, image_path: null }).returning("id").executeTakeFirstOrThrow();
  await db.kysely.insertInto("product_options").values({ product_id: id, position: 1, name: "Size", choices: [...SIZES] }).execute();
  await db.kysely.deleteFrom("product_variants").where("product_id", "=", id).execute();
  const variants = [];
  for (const [index, size] of SIZES.entries()) {
    const variant = await db.kysely.insertInto("product_variants").values({ product_id: id, option_values: [size], position: index + 1 }).returning("id").executeTakeFirstOrThrow();
    variants.push({ id: variant.id, size, stock: null });
  }
  const field = await db.kysely
    .insertInto("product_personalisation_fields")
    .values({ product_id: id, position: 1, label: "Name", kind: "text", required: false, max_length: 20, price: toRands(NAME_PRICE_CENTS).toFixed(2) })
    .returning("id")
    .executeTakeFirstOrThrow();
  return { id, name, priceCents: toCents("120.00"), available: true, deleted: false, variants, nameFieldId: field.id };
}

/** A fresh run: the real shop in its starting state and the model that describes it. */
export async function startRun(db: TestDatabase, prices: string[], whatsapp: FakeWhatsApp): Promise<{ model: ShopModel; real: RealShop }> {
  const run = ++runs;
  await clearEarlierRuns(db);
  const categoryId = await modelCategory(db);
  const products = [];
  for (const [index, price] of prices.entries()) {
    const name = `Model ${run} product ${index}`;
    const row = await db.kysely
      .insertInto("products")
      .values({ name, description: "", price, category_id: categoryId, image_path: null })
      .returning("id")
      .executeTakeFirstOrThrow();
    const variant = await db.kysely.selectFrom("product_variants").select("id").where("product_id", "=", row.id).executeTakeFirstOrThrow();
    products.push({ id: row.id, name, priceCents: toCents(price), available: true, deleted: false, variants: [{ id: variant.id, size: null, stock: null }], nameFieldId: null });
  }
  products.push(await optionsProduct(db, run, categoryId));
  // Written behind the catalogue's back: its cached reads must not outlive the set-up.
  (await catalogueFor(db, localFileUrl)).changed();

  const admin = await createUser(db, { role: "admin", fullName: `Model Admin ${run}` });
  const adminCaller = await callerAs(db, admin);
  const settings = settingsFromEnv();
  await adminCaller.settings.update(settings);

  const customers = [];
  const browsers = [];
  const limits = [];
  for (let index = 0; index < CUSTOMERS; index++) {
    const account = await customerAccount(db, run, index);
    const own = { signIn: freshSignInLimits(), request: freshRequestLimits() };
    limits.push(own);
    const browser = new TestBrowser(db, { signInLimits: own.signIn, requestLimits: own.request, whatsapp: whatsapp.settings });
    await browser.call((caller) => caller.auth.signIn({ email: account.email, password: PASSWORD }));
    browsers.push(browser);
    customers.push({
      ...account,
      password: PASSWORD,
      deleted: false,
      signedIn: true,
      cart: new Map<number, number>(),
      reservation: null,
      checkoutTries: 0,
      exports: 0,
      emailFailures: 0,
      addressFailures: 0,
      signUps: 0,
      resetRequests: 0,
      messages: 0,
      lastCheckout: null,
    });
  }

  return {
    model: { products, customers, orders: [], quotes: [], consents: customers.map(() => null), unpaidOrderDays: settings.unpaidOrderDays, contactMessages: 0, visitorMessages: 0 },
    real: {
      db,
      browsers,
      limits,
      inFlight: customers.map(() => null),
      admin: adminCaller,
      visitor: await callerAs(db, null),
      categoryId,
      unavailable: new Map(),
      whatsapp,
    },
  };
}
