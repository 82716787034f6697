/**
 * The access matrix at the API: every tRPC procedure and the stored-file URLs, for a visitor,
 * customer A, customer B and an admin, each cell allowed or refused as the spec's roles say;
 * plus the insecure-direct-object-reference attempts a customer could make on another's data.
 * (Row-level rules underneath are checked table by table in tests/db/rls-matrix.test.ts.)
 */
import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { shopDay } from "@/lib/days";
import { defaultOpeningHours } from "@/lib/opening-hours";
import { appRouter } from "@/server/api/root";
import { runAs } from "@/server/db/as-caller";
import { StorageError } from "@/server/ports/storage";
import { serveStoredFile } from "@/server/storage/serve-file";
import { storeThenWrite } from "@/server/storage/store-upload";
import { listObjectFiles } from "@/server/platform/adapters/local/local-storage";
import { callerAs, contextAs, testStorage, testStorageRoot, type Caller } from "../helpers/browser";
import { createUser, freshDatabase, type TestDatabase, type TestUser } from "../helpers/database";
import { fileOf, makePng } from "../helpers/images";
import { randomReference } from "../helpers/orders";
import { configuredShopSettings } from "../helpers/shop-settings";

type Role = "visitor" | "customerA" | "customerB" | "admin";
const ROLES: Role[] = ["visitor", "customerA", "customerB", "admin"];
/** "ok", or the refusal's code. */
type Outcome = "ok" | "UNAUTHORIZED" | "FORBIDDEN" | "PRECONDITION_FAILED" | "NOT_FOUND" | "BAD_REQUEST";

const EVERYONE: Record<Role, Outcome> = { visitor: "ok", customerA: "ok", customerB: "ok", admin: "ok" };
const SIGNED_IN: Record<Role, Outcome> = { visitor: "UNAUTHORIZED", customerA: "ok", customerB: "ok", admin: "ok" };
const CUSTOMERS: Record<Role, Outcome> = { visitor: "UNAUTHORIZED", customerA: "ok", customerB: "ok", admin: "FORBIDDEN" };
const ADMINS: Record<Role, Outcome> = { visitor: "UNAUTHORIZED", customerA: "FORBIDDEN", customerB: "FORBIDDEN", admin: "ok" };

let db: TestDatabase;
let users: Record<Exclude<Role, "visitor">, TestUser>;
let callers: Record<Role, Caller>;
let productId: string;
let categoryId: string;
let orderA: { id: string; reference: string; proofPath: string };
let avatarA: string;
const SPARE = { email: `spare-${randomUUID().slice(0, 8)}@example.test`, password: "spare-password-2026" };

/** A fresh account's password reset token, as its mail carries it. */
async function freshResetToken(): Promise<string> {
  const email = `reset-${randomUUID().slice(0, 8)}@example.test`;
  await callers.visitor.auth.signUp({ fullName: "Reset Person", email, password: "matrix-2026", confirmPassword: "matrix-2026", acceptTerms: true });
  await callers.visitor.auth.requestPasswordReset({ email });
  const mail = await db.kysely.selectFrom("mail_outbox").select("data").where("recipient", "=", email).where("template", "=", "password_reset").executeTakeFirstOrThrow();
  return (mail.data as { token: string }).token;
}

function png(name = "picture.png") {
  return fileOf(makePng(8, 8), name);
}

/** A checkout as `role` sends it: a customer pays with their reserved reference, anyone else with a made-up one. */
async function orderForm(role: Role) {
  const reserved = role === "customerA" || role === "customerB" ? (await callers[role].checkout.start()).reference : null;
  const form = new FormData();
  form.set("proof", png("proof.png"));
  form.set("reference", reserved ?? randomReference());
  form.set("idempotencyKey", randomUUID());
  return form;
}

/** A fresh bookable service, open every day with no notice, and its first free time tomorrow. */
async function freshSlot(): Promise<{ productId: string; startsAt: string }> {
  const productId = await freshProduct();
  await db.kysely.insertInto("bookable_services").values({ product_id: productId, duration_minutes: 60, notice_hours: 0 }).execute();
  for (let weekday = 1; weekday <= 7; weekday++) {
    await db.kysely.insertInto("bookable_service_hours").values({ product_id: productId, weekday, opens: "08:00", closes: "18:00" }).execute();
  }
  const { rows } = await sql<{ starts_at: Date }>`select starts_at from public.free_slots(${productId}::uuid, (now() at time zone 'Africa/Johannesburg')::date + 1, 1) limit 1`.execute(db.kysely);
  return { productId, startsAt: new Date(rows[0]!.starts_at).toISOString() };
}

function productForm(fields: Record<string, string> = {}) {
  const form = new FormData();
  form.set("name", `Matrix product ${randomUUID().slice(0, 6)}`);
  form.set("description", "Made for the access matrix.");
  form.set("price", "19.99");
  form.set("categoryId", categoryId);
  form.set("image", png("product.png"));
  for (const [key, value] of Object.entries(fields)) form.set(key, value);
  return form;
}

async function freshProduct(): Promise<string> {
  const row = await db.kysely
    .insertInto("products")
    .values({ name: `Spare ${randomUUID().slice(0, 6)}`, description: "", price: "10.00", category_id: categoryId, image_path: null })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A fresh product with two pictures (a product keeps at least one): the second's id. */
async function freshPicture(): Promise<string> {
  const product = await freshProduct();
  const values = (position: number) => ({ product_id: product, path: `${position}_matrix.png`, alt: "Matrix picture", position, is_card: position === 1 });
  await db.kysely.insertInto("product_images").values([values(1), values(2)]).execute();
  return (await db.kysely.selectFrom("product_images").select("id").where("product_id", "=", product).where("position", "=", 2).executeTakeFirstOrThrow()).id;
}

function pictureForm(): FormData {
  const form = new FormData();
  form.set("picture", png("side.png"));
  form.set("alt", "The side");
  return form;
}

async function putInCart(user: TestUser) {
  await runAs(db.kysely, user.identity, (trx) => sql`select public.add_to_cart(${productId}::uuid)`.execute(trx));
}

/** The role's own cart line (customers, after cartFirst); anyone else names a line that is not theirs. */
async function lineOf(role: Role) {
  if (role !== "customerA" && role !== "customerB") return { lineId: randomUUID() };
  const line = await db.kysely.selectFrom("cart_items").select("id").where("user_id", "=", users[role].id).where("slot_starts_at", "is", null).executeTakeFirstOrThrow();
  return { lineId: line.id };
}

/** Customers get a line in their cart first (the call changes or checks it out). */
async function cartFirst(role: Role) {
  if (role === "customerA" || role === "customerB") await putInCart(users[role]);
}

/** A fresh product's one variant, counted and sold out (what a back-in-stock request is for). */
async function soldOutVariant(): Promise<string> {
  const id = await freshProduct();
  const variant = await db.kysely.updateTable("product_variants").set({ stock: 0 }).where("product_id", "=", id).returning("id").executeTakeFirstOrThrow();
  return variant.id;
}

/** A low-stock crossing (a fresh variant brought to its mark), as its live notice names it. */
async function lowStockNoticeId(): Promise<string> {
  const id = await freshProduct();
  const variant = await db.kysely.updateTable("product_variants").set({ stock: 1, low_stock_at: 2 }).where("product_id", "=", id).returning("id").executeTakeFirstOrThrow();
  return (await db.kysely.selectFrom("low_stock_notices").select("id").where("variant_id", "=", variant.id).executeTakeFirstOrThrow()).id;
}

/** The variant `role` has asked about (visitors cannot ask: any sold-out variant then). */
const askedVariant: Partial<Record<Role, string>> = {};
async function askFirst(role: Role) {
  askedVariant[role] = await soldOutVariant();
  if (role !== "visitor") await callers[role].stockNotices.ask({ variantId: askedVariant[role] });
}

interface Rule {
  expect: Record<Role, Outcome>;
  /** The input for this role's call (fresh each time: some calls use up what they touch). */
  input?: (role: Role) => unknown | Promise<unknown>;
  /** State the call needs first (a cart line to change, say). */
  prepare?: (role: Role) => Promise<void>;
  /** Calls that end the caller's own account run as a throwaway user of the same role. */
  throwaway?: boolean;
}

const rules: Record<string, Rule> = {
  "adminOrders.list": { expect: ADMINS, input: () => ({}) },
  "adminOrders.counts": { expect: ADMINS, input: () => ({ search: "example" }) },
  "adminOrders.updateStatus": { expect: ADMINS, input: () => ({ id: orderA.id, status: "pending_delivery" }) },
  "adminOrders.notice": { expect: ADMINS, input: () => ({ id: orderA.id }) },
  // A balance after a deposit (docs/bookings.md): admins only; an order without one is not found (booking-deposits.test.ts pays one).
  "adminOrders.markBalancePaid": {
    expect: { visitor: "UNAUTHORIZED", customerA: "FORBIDDEN", customerB: "FORBIDDEN", admin: "NOT_FOUND" },
    input: () => ({ orderId: randomUUID() }),
  },
  "adminProducts.list": { expect: ADMINS },
  "adminProducts.categories": { expect: ADMINS },
  "adminProducts.addCategory": { expect: ADMINS, input: () => ({ name: `Matrix ${randomUUID().slice(0, 6)}` }) },
  "adminProducts.create": { expect: ADMINS, input: () => productForm() },
  "adminProducts.update": { expect: ADMINS, input: async () => productForm({ id: await freshProduct() }) },
  "adminProducts.setQuoteMode": { expect: ADMINS, input: async () => ({ id: await freshProduct(), quoteMode: "beside" }) },
  "adminProducts.setAvailability": { expect: ADMINS, input: async () => ({ id: await freshProduct(), available: false }) },
  "adminProducts.delete": { expect: ADMINS, input: async () => ({ id: await freshProduct() }) },
  "adminProducts.pictures": { expect: ADMINS, input: () => ({ productId }) },
  "adminProducts.addPicture": {
    expect: ADMINS,
    input: async () => {
      const form = pictureForm();
      form.set("productId", await freshProduct());
      return form;
    },
  },
  "adminProducts.savePictureAlt": { expect: ADMINS, input: async () => ({ id: await freshPicture(), alt: "Renamed" }) },
  "adminProducts.movePicture": { expect: ADMINS, input: async () => ({ id: await freshPicture(), direction: "up" }) },
  "adminProducts.setCardPicture": { expect: ADMINS, input: async () => ({ id: await freshPicture() }) },
  "adminProducts.removePicture": { expect: ADMINS, input: async () => ({ id: await freshPicture() }) },
  "adminProducts.variants": { expect: ADMINS, input: () => ({ id: productId }) },
  "adminProducts.booking": { expect: ADMINS, input: () => ({ id: productId }) },
  "adminProducts.saveBooking": {
    expect: ADMINS,
    input: async () => ({
      productId: await freshProduct(),
      settings: { durationMinutes: 60, bufferMinutes: 0, capacity: 1, noticeHours: 24, horizonDays: 30, location: "shop" as const, deposit: "none" as const, depositPercent: null, refundUntilHours: 48, hours: [] },
    }),
  },
  "adminProducts.saveOptions": { expect: ADMINS, input: async () => ({ productId: await freshProduct(), options: [{ name: "Size", choices: ["S", "M"] }] }) },
  "adminProducts.savePersonalisation": {
    expect: ADMINS,
    input: async () => ({ productId: await freshProduct(), fields: [{ label: "Name on the shirt", kind: "text", required: false, maxLength: 20, price: "" }] }),
  },
  "adminProducts.saveVariants": {
    expect: ADMINS,
    input: async () => {
      const id = await freshProduct();
      const variant = await db.kysely.selectFrom("product_variants").select("id").where("product_id", "=", id).executeTakeFirstOrThrow();
      return { productId: id, variants: [{ id: variant.id, sku: null, price: null, available: true, stock: 5, stockWas: null, lowStockAt: null, pictureId: null }] };
    },
  },
  "auth.session": { expect: EVERYONE },
  "auth.signIn": { expect: EVERYONE, input: () => SPARE },
  "auth.signUp": {
    expect: EVERYONE,
    input: () => ({ fullName: "Matrix Person", email: `m-${randomUUID().slice(0, 8)}@example.test`, password: "matrix-2026", confirmPassword: "matrix-2026", acceptTerms: true }),
  },
  "auth.signOut": { expect: EVERYONE },
  "auth.resendConfirmation": { expect: EVERYONE, input: () => ({ email: SPARE.email }) },
  // Account recovery (issue 34): anyone may ask for a reset link (the same answer for every
  // address) and use one they were sent; the link decides, not the role. A link that is not one
  // answers the same plain refusal to everyone.
  "auth.requestPasswordReset": { expect: EVERYONE, input: () => ({ email: `nobody-${randomUUID().slice(0, 8)}@example.test` }) },
  "auth.resetPassword": { expect: EVERYONE, input: async () => ({ token: await freshResetToken(), password: "matrix-new-2026", confirmPassword: "matrix-new-2026" }) },
  "auth.confirmEmailChange": {
    expect: { visitor: "BAD_REQUEST", customerA: "BAD_REQUEST", customerB: "BAD_REQUEST", admin: "BAD_REQUEST" },
    input: () => ({ token: "x".repeat(43) }),
  },
  // Google is not configured in tests: everyone gets the same plain refusal, no role decides it.
  "auth.googleStart": { expect: { visitor: "PRECONDITION_FAILED", customerA: "PRECONDITION_FAILED", customerB: "PRECONDITION_FAILED", admin: "PRECONDITION_FAILED" }, input: () => ({}) },
  "cart.list": { expect: CUSTOMERS },
  "cart.count": { expect: CUSTOMERS },
  "cart.add": { expect: CUSTOMERS, input: () => ({ productId }) },
  // Bookable services (issue 38): anyone sees free times; customers hold one (a fresh service each, so none is taken).
  "cart.addBooking": { expect: CUSTOMERS, input: () => freshSlot() },
  "cart.increase": { expect: CUSTOMERS, input: (role) => lineOf(role), prepare: cartFirst },
  "cart.decrease": { expect: CUSTOMERS, input: (role) => lineOf(role), prepare: cartFirst },
  "cart.remove": { expect: CUSTOMERS, input: (role) => lineOf(role), prepare: cartFirst },
  "cart.uploadFile": {
    expect: CUSTOMERS,
    input: () => {
      const form = new FormData();
      form.set("file", new File([new Uint8Array(makePng())], "logo.png", { type: "image/png" }));
      return form;
    },
  },
  // Moving a booking: signed-in only; the booking decides (its customer, or an admin), so a made-up one is not found for anyone.
  "bookings.move": {
    expect: { visitor: "UNAUTHORIZED", customerA: "NOT_FOUND", customerB: "NOT_FOUND", admin: "NOT_FOUND" },
    input: async () => ({ bookingId: randomUUID(), startsAt: (await freshSlot()).startsAt }),
  },
  // Cancelling a booking: the same (booking-changes.test.ts cancels real ones).
  "bookings.cancel": {
    expect: { visitor: "UNAUTHORIZED", customerA: "NOT_FOUND", customerB: "NOT_FOUND", admin: "NOT_FOUND" },
    input: () => ({ bookingId: randomUUID() }),
  },
  // The owner's day: admins only (booking-owner-day.test.ts shows what they see).
  "bookings.calendar": { expect: ADMINS, input: () => ({ from: "2026-12-10", days: 7 }) },
  "bookings.blocks": { expect: ADMINS },
  "bookings.addBlock": {
    expect: ADMINS,
    input: async () => ({ productId: (await freshSlot()).productId, from: "2031-01-06T12:00", to: "2031-01-06T17:00", reason: "Matrix" }),
  },
  "bookings.removeBlock": { expect: { visitor: "UNAUTHORIZED", customerA: "FORBIDDEN", customerB: "FORBIDDEN", admin: "NOT_FOUND" }, input: () => ({ id: randomUUID() }) },
  "bookings.freeSlots": { expect: EVERYONE, input: async () => ({ productId: (await freshSlot()).productId, days: 2 }) },
  "catalogue.list": { expect: EVERYONE, input: () => ({}) },
  "catalogue.categories": { expect: EVERYONE },
  "catalogue.byId": { expect: EVERYONE, input: () => ({ id: productId }) },
  "catalogue.related": { expect: EVERYONE, input: () => ({ id: productId }) },
  "catalogue.pictures": { expect: EVERYONE, input: () => ({ id: productId }) },
  "catalogue.page": { expect: EVERYONE, input: () => ({}) },
  "catalogue.sitemap": { expect: EVERYONE },
  "checkout.start": { expect: CUSTOMERS },
  "checkout.placeOrder": { expect: CUSTOMERS, input: (role) => orderForm(role), prepare: cartFirst },
  "contact.send": { expect: EVERYONE, input: () => ({ name: "Matrix", email: "matrix@example.test", phone: "", message: "Hello from the matrix." }) },
  "contact.list": { expect: ADMINS },
  "contact.notice": {
    expect: ADMINS,
    input: async () => ({ id: (await db.kysely.selectFrom("contact_messages").select("id").limit(1).executeTakeFirstOrThrow()).id }),
  },
  "contact.markRead": {
    expect: ADMINS,
    input: async () => {
      const row = await db.kysely.selectFrom("contact_messages").select("id").limit(1).executeTakeFirstOrThrow();
      return { id: row.id, read: true };
    },
  },
  "invoices.settings": { expect: ADMINS },
  "invoices.updateSettings": {
    expect: ADMINS,
    input: () => ({ vatRegistered: true, vatNumber: "4123456789", legalName: "Matrix (Pty) Ltd", legalAddress: "1 Matrix Road", invoicePrefix: "INV-" }),
  },
  "invoices.myDetails": { expect: SIGNED_IN },
  "invoices.saveMyDetails": { expect: SIGNED_IN, input: () => ({ company: "Matrix CC", address: "1 Matrix Road", vatNumber: "" }) },
  // Another customer's order lists nothing for them (RLS), which is not an error.
  "invoices.forOrder": { expect: SIGNED_IN, input: () => ({ orderId: orderA.id }) },
  // Customer A's invoice: theirs and the admins'; anyone else is told it does not exist.
  "invoices.download": { expect: { visitor: "UNAUTHORIZED", customerA: "ok", customerB: "NOT_FOUND", admin: "ok" }, input: async () => ({ id: await invoiceOfA() }) },
  // Fulfilment (docs/architecture.md#delivery-and-collection): customers ask what checkout offers them; admins set it up.
  "fulfilment.options": { expect: CUSTOMERS },
  "fulfilment.settings": { expect: ADMINS },
  "fulfilment.updateSettings": {
    expect: ADMINS,
    input: () => ({ collectionEnabled: false, collectionAddress: "", cutoffTime: "14:00", openingHours: defaultOpeningHours() }),
  },
  "fulfilment.saveArea": { expect: ADMINS, input: () => ({ name: `Matrix ${randomUUID().slice(0, 6)}`, fee: "50", minimumOrder: "" }) },
  // Removes what saveArea added first, so later checkouts in the matrix are still asked nothing.
  "fulfilment.removeArea": {
    expect: ADMINS,
    prepare: async () => {
      await db.kysely.updateTable("delivery_areas").set({ active: false }).execute();
    },
    input: async () => ({
      id: (await db.kysely.insertInto("delivery_areas").values({ name: `Spare ${randomUUID().slice(0, 6)}`, fee: "10.00" }).returning("id").executeTakeFirstOrThrow()).id,
    }),
  },
  "fulfilment.addClosedDay": { expect: ADMINS, input: () => ({ day: "2027-01-01", reason: "New Year's Day" }) },
  "fulfilment.removeClosedDay": {
    expect: ADMINS,
    input: async () => {
      await db.kysely.insertInto("closed_days").values({ day: "2027-03-21", reason: "Human Rights Day" }).onConflict((c) => c.doNothing()).execute();
      return { day: "2027-03-21" };
    },
  },
  "fulfilment.leadTimes": { expect: ADMINS },
  "fulfilment.setLeadTime": { expect: ADMINS, input: async () => ({ productId: await freshProduct(), days: 2 }) },
  "fulfilment.setDailyLimit": { expect: ADMINS, input: () => ({ categoryId, limit: null }) },
  "fulfilment.runSheet": { expect: ADMINS, input: () => ({ day: "2026-12-02" }) },
  "live.changes": { expect: SIGNED_IN },
  "mail.outbox": { expect: ADMINS },
  "mail.orderMessages": { expect: ADMINS, input: () => ({ id: orderA.id }) },
  "orders.mine": { expect: SIGNED_IN },
  "orders.latest": { expect: SIGNED_IN },
  // One order's page: its customer's and the admins'; anyone else's is not found (RLS).
  "orders.byReference": { expect: { visitor: "UNAUTHORIZED", customerA: "ok", customerB: "NOT_FOUND", admin: "ok" }, input: () => ({ reference: orderA.reference }) },
  "overview.summary": { expect: ADMINS },
  "overview.range": { expect: ADMINS, input: () => ({ from: "2026-11-01", to: "2026-11-30" }) },
  "overview.quotes": { expect: ADMINS, input: () => ({ from: "2026-11-01", to: "2026-11-30" }) },
  "profile.uploadAvatar": {
    expect: SIGNED_IN,
    input: () => {
      const form = new FormData();
      form.set("image", png("me.png"));
      return form;
    },
  },
  "profile.deleteAccount": { expect: SIGNED_IN, throwaway: true },
  "messaging.myConsents": { expect: SIGNED_IN },
  // Unticking works whether or not the shop sends on WhatsApp (ticking needs it: tests/api/whatsapp.test.ts).
  "messaging.setConsent": { expect: SIGNED_IN, input: () => ({ kind: "offers" as const, given: false as const }) },
  // WhatsApp's settings in Shop settings: admins only (never the token or secrets back: whatsapp-settings.test.ts).
  "messaging.settings": { expect: ADMINS },
  "messaging.updateSettings": {
    expect: ADMINS,
    input: () => ({ enabled: false, phoneNumberId: "", accessToken: "", appSecret: "", verifyToken: "", ownerPhone: "", ownerAlerts: false }),
  },
  "profile.exportData": { expect: SIGNED_IN },
  "profile.changeEmail": { expect: SIGNED_IN, input: () => ({ email: `moved-${randomUUID().slice(0, 8)}@example.test` }) },
  // The current password decides for a signed-in caller (the matrix's users have none: refused
  // plainly); the flow itself is tested in account-recovery.test.ts.
  "profile.changePassword": {
    expect: { visitor: "UNAUTHORIZED", customerA: "BAD_REQUEST", customerB: "BAD_REQUEST", admin: "BAD_REQUEST" },
    input: () => ({ currentPassword: "not-it-2026", password: "matrix-new-2026", confirmPassword: "matrix-new-2026" }),
  },
  // Paying online: only customers pay, each for their own orders (another's is refused by RLS,
  // tested in payments.test.ts); only admins see or set PayFast's credentials.
  "payments.payNow": { expect: CUSTOMERS, input: (role) => payNowInput(role), prepare: cartFirst },
  "payments.payAgain": { expect: CUSTOMERS, input: (role) => ({ orderId: payNowOrders[role] ?? randomUUID() }), prepare: payNowOrderFirst },
  "payments.order": { expect: CUSTOMERS, input: (role) => ({ orderId: payNowOrders[role] ?? randomUUID() }), prepare: payNowOrderFirst },
  "payments.attachProof": {
    expect: CUSTOMERS,
    prepare: payNowOrderFirst,
    input: (role) => {
      const form = new FormData();
      form.set("orderId", payNowOrders[role] ?? randomUUID());
      form.set("proof", png("proof.png"));
      return form;
    },
  },
  // Paying a balance: customers only, their own order's (a made-up one is not found; booking-deposits.test.ts pays one).
  "payments.payBalance": {
    expect: { visitor: "UNAUTHORIZED", customerA: "NOT_FOUND", customerB: "NOT_FOUND", admin: "FORBIDDEN" },
    input: () => ({ orderId: randomUUID() }),
  },
  "payments.attachBalanceProof": {
    expect: { visitor: "UNAUTHORIZED", customerA: "NOT_FOUND", customerB: "NOT_FOUND", admin: "FORBIDDEN" },
    input: () => {
      const form = new FormData();
      form.set("orderId", randomUUID());
      form.set("proof", png("proof.png"));
      return form;
    },
  },
  "payments.settings": { expect: ADMINS },
  "payments.updateSettings": { expect: ADMINS, input: () => ({ merchantId: "10000100", merchantKey: "", passphrase: "", clearPassphrase: false, sandbox: true }) },
  "settings.get": { expect: ADMINS },
  "settings.goLive": { expect: ADMINS },
  "settings.published": { expect: EVERYONE },
  // The matrix's shop keeps taking orders: the account saved is a real-looking one.
  "settings.update": { expect: ADMINS, input: () => configuredShopSettings() },
  // Back-in-stock requests are the signed-in caller's own (RLS: stock-notices.test.ts, rls-matrix.test.ts).
  "stockNotices.ask": { expect: SIGNED_IN, input: async () => ({ variantId: await soldOutVariant() }) },
  "stockNotices.withdraw": { expect: SIGNED_IN, input: (role) => ({ variantId: askedVariant[role] }), prepare: askFirst },
  "stockNotices.requested": { expect: SIGNED_IN, input: async () => ({ variantIds: [await soldOutVariant()] }) },
  "stockNotices.lowStockNotice": { expect: ADMINS, input: async () => ({ id: await lowStockNoticeId() }) },
  // Quotes (docs/quotes.md): customers ask and decide on their own; admins price. Each decision
  // is tried on a fresh quote of customer A's: B gets NOT_FOUND (A's quote is not theirs to see).
  "quotes.request": { expect: CUSTOMERS, input: () => ({ description: "A matrix quote, please." }) },
  "quotes.uploadFile": {
    expect: CUSTOMERS,
    input: () => {
      const form = new FormData();
      form.set("file", png("logo.png"));
      return form;
    },
  },
  "quotes.mine": { expect: SIGNED_IN },
  "quotes.pdf": { expect: { visitor: "UNAUTHORIZED", customerA: "ok", customerB: "NOT_FOUND", admin: "ok" }, input: async () => ({ quoteId: (await sentQuoteOfA()).quoteId }) },
  "quotes.byId": { expect: { visitor: "UNAUTHORIZED", customerA: "ok", customerB: "NOT_FOUND", admin: "ok" }, input: async () => ({ requestId: (await sentQuoteOfA()).requestId }) },
  "quotes.acceptOptions": { expect: { visitor: "UNAUTHORIZED", customerA: "ok", customerB: "NOT_FOUND", admin: "FORBIDDEN" }, input: async () => ({ quoteId: (await sentQuoteOfA()).quoteId }) },
  "quotes.accept": { expect: { visitor: "UNAUTHORIZED", customerA: "ok", customerB: "NOT_FOUND", admin: "FORBIDDEN" }, input: async () => ({ quoteId: (await sentQuoteOfA()).quoteId }) },
  "quotes.decline": {
    expect: { visitor: "UNAUTHORIZED", customerA: "ok", customerB: "NOT_FOUND", admin: "FORBIDDEN" },
    input: async () => ({ quoteId: (await sentQuoteOfA()).quoteId, reason: "Too dear." }),
  },
  "quotes.askChange": {
    expect: { visitor: "UNAUTHORIZED", customerA: "ok", customerB: "NOT_FOUND", admin: "FORBIDDEN" },
    input: async () => ({ quoteId: (await sentQuoteOfA()).quoteId, message: "Navy, please." }),
  },
  "adminQuotes.inbox": { expect: ADMINS },
  "adminQuotes.variants": { expect: ADMINS },
  "adminQuotes.get": { expect: ADMINS, input: async () => ({ requestId: (await sentQuoteOfA()).requestId }) },
  "adminQuotes.saveDraft": { expect: ADMINS, input: async () => draftInput((await requestOfA("Matrix draft.")).requestId) },
  "adminQuotes.send": {
    expect: ADMINS,
    input: async () => {
      const { requestId } = await requestOfA("Matrix send.");
      return { quoteId: (await callers.admin.adminQuotes.saveDraft(draftInput(requestId))).quoteId };
    },
  },
};

/** A draft of one custom line, valid for 30 days. */
function draftInput(requestId: string) {
  return { requestId, validUntil: shopDay(30), lines: [{ kind: "custom" as const, description: "Matrix work", quantity: 1, unitPrice: "100" }] };
}

/**
 * A fresh request of customer A's, made through a caller of its own: requests are limited per
 * caller (QUOTE_REQUEST_LIMIT), and the matrix makes more of them than a customer may in an hour.
 */
async function requestOfA(description: string): Promise<{ requestId: string }> {
  return (await callerAs(db, users.customerA)).quotes.request({ description });
}

/** A fresh request of customer A's, priced and sent by the admin. */
async function sentQuoteOfA(): Promise<{ requestId: string; quoteId: string }> {
  const { requestId } = await requestOfA("Matrix quote.");
  const { quoteId } = await callers.admin.adminQuotes.saveDraft(draftInput(requestId));
  await callers.admin.adminQuotes.send({ quoteId });
  return { requestId, quoteId };
}

/** "Pay now" as `role` sends it: a customer with their reserved reference, anyone else a made-up one. */
async function payNowInput(role: Role) {
  const reserved = role === "customerA" || role === "customerB" ? (await callers[role].checkout.start()).reference : null;
  return { reference: reserved ?? randomReference(), idempotencyKey: randomUUID() };
}

/** Each customer's own order placed with "Pay now" and still unpaid (fresh for every call that uses one up). */
const payNowOrders: Partial<Record<Role, string>> = {};
async function payNowOrderFirst(role: Role) {
  if (role !== "customerA" && role !== "customerB") return;
  await putInCart(users[role]);
  payNowOrders[role] = (await callers[role].payments.payNow(await payNowInput(role))).orderId;
}

/** Customer A's order made paid (so the database issued its invoice), and that invoice's id. */
async function invoiceOfA(): Promise<string> {
  await db.kysely.updateTable("orders").set({ status: "pending_delivery" }).where("id", "=", orderA.id).where("status", "=", "pending_payment").execute();
  return (await db.kysely.selectFrom("invoices").select("id").where("order_id", "=", orderA.id).where("kind", "=", "invoice").executeTakeFirstOrThrow()).id;
}

async function outcome(promise: Promise<unknown>): Promise<Outcome | string> {
  try {
    const result = await promise;
    // A subscription answers with a stream: being handed one is the access; close it again.
    if (result && typeof result === "object" && Symbol.asyncIterator in result) {
      await (result as AsyncIterable<unknown>)[Symbol.asyncIterator]().return?.();
    }
    return "ok";
  } catch (error) {
    return (error as { code?: string }).code ?? String(error);
  }
}

function call(caller: Caller, path: string, input: unknown): Promise<unknown> {
  const [router, name] = path.split(".") as [string, string];
  const procedure = (caller as unknown as Record<string, Record<string, (input: unknown) => Promise<unknown>>>)[router]![name]!;
  return procedure(input);
}

beforeAll(async () => {
  db = await freshDatabase();
  // PayFast is set up, so "Pay now" is offered.
  await db.kysely.insertInto("payment_settings").values({ payfast_merchant_id: "10000100", payfast_merchant_key: "46f0cd694581a", payfast_sandbox: true }).execute();
  users = {
    customerA: await createUser(db, { fullName: "Customer A" }),
    customerB: await createUser(db, { fullName: "Customer B" }),
    admin: await createUser(db, { role: "admin", fullName: "Admin" }),
  };
  callers = {
    visitor: await callerAs(db, null),
    customerA: await callerAs(db, users.customerA),
    customerB: await callerAs(db, users.customerB),
    admin: await callerAs(db, users.admin),
  };
  productId = (await db.kysely.selectFrom("products").select("id").where("available", "=", true).limit(1).executeTakeFirstOrThrow()).id;
  categoryId = (await db.kysely.selectFrom("categories").select("id").limit(1).executeTakeFirstOrThrow()).id;
  await callers.visitor.auth.signUp({ fullName: "Spare", email: SPARE.email, password: SPARE.password, confirmPassword: SPARE.password, acceptTerms: true });
  await callers.visitor.contact.send({ name: "Setup", email: "setup@example.test", phone: "", message: "A first message." });

  // Customer A's order with a real proof on disk, and A's profile picture.
  await putInCart(users.customerA);
  const placed = await callers.customerA.checkout.placeOrder(await orderForm("customerA"));
  const order = await db.kysely.selectFrom("orders").select(["id", "reference", "proof_path"]).where("id", "=", placed.orderId).executeTakeFirstOrThrow();
  orderA = { id: order.id, reference: order.reference, proofPath: order.proof_path! };
  const avatar = new FormData();
  avatar.set("image", png("a.png"));
  await callers.customerA.profile.uploadAvatar(avatar);
  avatarA = (await db.kysely.selectFrom("profiles").select("avatar_path").where("id", "=", users.customerA.id).executeTakeFirstOrThrow()).avatar_path!;
});

afterAll(async () => {
  await db.close();
});

describe("access matrix: every procedure × visitor, customer A, customer B, admin", () => {
  it("covers every procedure the router has", () => {
    const procedures = Object.keys(appRouter._def.procedures as unknown as Record<string, unknown>).sort();
    expect(Object.keys(rules).sort()).toEqual(procedures);
  });

  for (const [path, rule] of Object.entries(rules)) {
    it(path, async () => {
      const seen: Record<Role, Outcome | string> = { visitor: "", customerA: "", customerB: "", admin: "" };
      for (const role of ROLES) {
        await rule.prepare?.(role);
        let caller = callers[role];
        if (rule.throwaway && role !== "visitor") {
          caller = await callerAs(db, await createUser(db, { role: role === "admin" ? "admin" : "user" }));
        }
        seen[role] = await outcome(call(caller, path, await rule.input?.(role)));
      }
      expect(seen).toEqual(rule.expect);
    });
  }
});

describe("stored-file URLs × roles", () => {
  async function status(role: Role, bucket: string, path: string): Promise<number> {
    const ctx = await contextAs(db, role === "visitor" ? null : users[role]);
    return (await serveStoredFile(ctx, bucket, path.split("/"))).status;
  }

  it("a proof of payment reaches its owner and admins only; a profile picture is public", async () => {
    const cells: [string, string, Record<Role, number>][] = [
      ["payments", orderA.proofPath, { visitor: 404, customerA: 200, customerB: 404, admin: 200 }],
      ["avatars", avatarA, { visitor: 200, customerA: 200, customerB: 200, admin: 200 }],
      ["payments", `${users.customerA.id}/no-such-file.png`, { visitor: 404, customerA: 404, customerB: 404, admin: 404 }],
      ["secrets", "anything.png", { visitor: 404, customerA: 404, customerB: 404, admin: 404 }],
      ["payments", `../avatars/${avatarA}`, { visitor: 404, customerA: 404, customerB: 404, admin: 404 }],
    ];
    for (const [bucket, path, expected] of cells) {
      const seen = Object.fromEntries(await Promise.all(ROLES.map(async (role) => [role, await status(role, bucket, path)])));
      expect(seen, `${bucket}/${path}`).toEqual(expected);
    }
  });
});

describe("another customer's things (IDOR)", () => {
  it("customer B sees none of A's orders and cannot change their status", async () => {
    const mine = (await callers.customerB.orders.mine()) as { id: string }[];
    expect(mine.map((o) => o.id)).not.toContain(orderA.id);
    expect(await outcome(callers.customerB.adminOrders.updateStatus({ id: orderA.id, status: "cancelled" }))).toBe("FORBIDDEN");
    const status = await db.kysely.selectFrom("orders").select("status").where("id", "=", orderA.id).executeTakeFirstOrThrow();
    expect(status.status).not.toBe("cancelled");
  });

  it("customer B's cart calls never touch A's cart", async () => {
    await putInCart(users.customerA);
    const linesOfA = () => db.kysely.selectFrom("cart_items").select(["product_id", "quantity"]).where("user_id", "=", users.customerA.id).execute();
    const before = await linesOfA();
    const { lineId } = await lineOf("customerA");
    await outcome(callers.customerB.cart.remove({ lineId }));
    await outcome(callers.customerB.cart.decrease({ lineId }));
    await outcome(callers.customerB.cart.increase({ lineId }));
    expect(await linesOfA()).toEqual(before);
  });

  it("customer B cannot put files in A's folders, for proofs or profile pictures", async () => {
    const asB = (await contextAs(db, users.customerB)).db;
    for (const bucket of ["payments", "avatars"] as const) {
      const error = await storeThenWrite(
        { db: asB, storage: testStorage(db) },
        { object: { bucket, path: `${users.customerA.id}/${Date.now()}_sneaky.png` }, bytes: makePng(), contentType: "image/png" },
        async () => undefined,
      ).then(
          () => null,
          (e: unknown) => e,
        );
      expect(error, bucket).toBeInstanceOf(StorageError);
    }
    // The bytes go to disk before the row is refused: they must be gone again.
    const inAsFolders = (await listObjectFiles(testStorageRoot(db))).filter((file) => file.includes(`/${users.customerA.id}/`) && file.includes("_sneaky"));
    expect(inAsFolders).toEqual([]);
  });

  it("customer B cannot read A's profile row or A's cart through the database either", async () => {
    const ctx = await contextAs(db, users.customerB);
    const profiles = await ctx.db.transaction((trx) => trx.selectFrom("profiles").select("id").where("id", "=", users.customerA.id).execute());
    const carts = await ctx.db.transaction((trx) => trx.selectFrom("cart_items").select("id").where("user_id", "=", users.customerA.id).execute());
    expect([profiles, carts]).toEqual([[], []]);
  });
});
