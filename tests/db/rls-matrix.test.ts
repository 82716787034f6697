import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "kysely";
import { ANON, runAs, SERVICE, type DbIdentity, type Tx } from "@/server/db/as-caller";
import { attempt } from "../helpers/attempt";
import { createUser, freshDatabase, type TestDatabase, type TestUser } from "../helpers/database";
import { openReference, placeTestOrder } from "../helpers/orders";
import { configuredShopSettings } from "../helpers/shop-settings";
import { insertMissingSettings } from "@/server/settings/settings-queries";

type Actor = "visitor" | "customerA" | "customerB" | "admin";
type Op = "select" | "insert" | "update" | "delete";
const ACTORS: Actor[] = ["visitor", "customerA", "customerB", "admin"];

let db: TestDatabase;
let users: Record<Exclude<Actor, "visitor">, TestUser>;
const ids = {
  category: "",
  emptyCategory: "",
  product: "",
  spareProduct: "",
  picture: "",
  cartLine: "",
  order: "",
  orderItem: "",
  message: "",
  noProfileUser: "",
  payment: "",
  area: "",
  removedArea: "",
  soldOutVariant: "",
  otherSoldOutVariant: "",
  request: "",
  lowStockNotice: "",
  service: "",
  booking: "",
  block: "",
  consent: "",
  quoteRequest: "",
  quote: "",
  draftQuote: "",
  quoteLine: "",
  draftLine: "",
  quoteFile: "",
  quoteMessage: "",
};

function identityOf(actor: Actor): DbIdentity {
  return actor === "visitor" ? ANON : users[actor].identity;
}

/** Turns a row count into allowed/refused: RLS hides rows rather than raising. */
const some = async (rows: Promise<unknown[] | { numUpdatedRows?: bigint; numDeletedRows?: bigint }>) => {
  const result = await rows;
  if (Array.isArray(result)) return result.length > 0;
  return (result.numUpdatedRows ?? result.numDeletedRows ?? 0n) > 0n;
};

/** Each cell: what the actor tries, and who the spec's role table allows (docs/architecture.md#the-database-holds-the-rules, spec §6). */
const matrix: Record<string, Record<Op, { run: (trx: Tx) => Promise<unknown>; allowed: Actor[] }>> = {
  // Password reset and e-mail change tokens (issue 34): nobody reads or writes them through the API, not even their owner.
  "private.account_tokens": {
    select: { run: (t) => some(t.selectFrom("private.account_tokens").select("token_hash").execute()), allowed: [] },
    insert: {
      run: (t) => t.insertInto("private.account_tokens").values({ token_hash: "b".repeat(64), kind: "password_reset", user_id: users.customerA.id, new_email: null, expires_at: new Date(Date.now() + 3_600_000) }).execute(),
      allowed: [],
    },
    update: { run: (t) => some(t.updateTable("private.account_tokens").set({ used_at: null, expires_at: new Date(Date.now() + 86_400_000) }).executeTakeFirst()), allowed: [] },
    delete: { run: (t) => some(t.deleteFrom("private.account_tokens").executeTakeFirst()), allowed: [] },
  },
  profiles: {
    select: { run: (t) => some(t.selectFrom("profiles").select("id").where("id", "=", users.customerA.id).execute()), allowed: ["customerA", "admin"] },
    insert: { run: (t) => t.insertInto("profiles").values({ id: ids.noProfileUser, email: "x@example.test", full_name: "X", avatar_path: null }).execute(), allowed: [] },
    update: { run: (t) => some(t.updateTable("profiles").set({ full_name: "Changed" }).where("id", "=", users.customerA.id).executeTakeFirst()), allowed: ["customerA"] },
    delete: { run: (t) => some(t.deleteFrom("profiles").where("id", "=", users.customerA.id).executeTakeFirst()), allowed: [] },
  },
  // A product's pictures (issue 37): shop data, read by everyone, written by admins as products are.
  product_images: {
    select: { run: (t) => some(t.selectFrom("product_images").select("id").where("id", "=", ids.picture).execute()), allowed: ACTORS },
    insert: { run: (t) => t.insertInto("product_images").values({ product_id: ids.product, path: "2_side.png", alt: "Side", position: 2 }).execute(), allowed: ["admin"] },
    update: { run: (t) => some(t.updateTable("product_images").set({ alt: "Renamed" }).where("id", "=", ids.picture).executeTakeFirst()), allowed: ["admin"] },
    delete: { run: (t) => some(t.deleteFrom("product_images").where("id", "=", ids.picture).executeTakeFirst()), allowed: ["admin"] },
  },
  categories: {
    select: { run: (t) => some(t.selectFrom("categories").select("id").where("id", "=", ids.category).execute()), allowed: ACTORS },
    insert: { run: (t) => t.insertInto("categories").values({ name: `New ${randomUUID().slice(0, 8)}` }).execute(), allowed: ["admin"] },
    update: { run: (t) => some(t.updateTable("categories").set({ name: "Renamed" }).where("id", "=", ids.category).executeTakeFirst()), allowed: ["admin"] },
    delete: { run: (t) => some(t.deleteFrom("categories").where("id", "=", ids.emptyCategory).executeTakeFirst()), allowed: ["admin"] },
  },
  products: {
    select: { run: (t) => some(t.selectFrom("products").select("id").where("id", "=", ids.product).execute()), allowed: ACTORS },
    insert: { run: (t) => t.insertInto("products").values({ name: "New", price: "10.00", category_id: ids.category, image_path: null }).execute(), allowed: ["admin"] },
    update: { run: (t) => some(t.updateTable("products").set({ price: "1.00" }).where("id", "=", ids.product).executeTakeFirst()), allowed: ["admin"] },
    delete: { run: (t) => some(t.deleteFrom("products").where("id", "=", ids.spareProduct).executeTakeFirst()), allowed: ["admin"] },
  },
  cart_items: {
    select: { run: (t) => some(t.selectFrom("cart_items").select("id").where("id", "=", ids.cartLine).execute()), allowed: ["customerA"] },
    insert: { run: (t) => t.insertInto("cart_items").values({ user_id: users.customerA.id, product_id: ids.spareProduct, variant_id: (eb) => eb.selectFrom("product_variants").select("id").where("product_id", "=", ids.spareProduct) }).execute(), allowed: ["customerA"] },
    update: { run: (t) => some(t.updateTable("cart_items").set({ quantity: 5 }).where("id", "=", ids.cartLine).executeTakeFirst()), allowed: ["customerA"] },
    delete: { run: (t) => some(t.deleteFrom("cart_items").where("id", "=", ids.cartLine).executeTakeFirst()), allowed: ["customerA"] },
  },
  orders: {
    select: { run: (t) => some(t.selectFrom("orders").select("id").where("id", "=", ids.order).execute()), allowed: ["customerA", "admin"] },
    insert: {
      run: (t) =>
        t.insertInto("orders").values({
          reference: "ORD-1",
          user_id: users.customerA.id,
          customer_name: "A",
          customer_email: "a@example.test",
          total: "1.00",
          idempotency_key: randomUUID(),
          proof_path: null,
        }).execute(),
      allowed: [],
    },
    update: { run: (t) => some(t.updateTable("orders").set({ status: "complete" }).where("id", "=", ids.order).executeTakeFirst()), allowed: ["admin"] },
    delete: { run: (t) => some(t.deleteFrom("orders").where("id", "=", ids.order).executeTakeFirst()), allowed: [] },
  },
  // Reservations are written only by open_checkout_reference() and place_order(); the owner reads theirs.
  checkout_references: {
    select: { run: (t) => some(t.selectFrom("checkout_references").select("reference").where("user_id", "=", users.customerA.id).execute()), allowed: ["customerA"] },
    insert: { run: (t) => t.insertInto("checkout_references").values({ user_id: users.customerB.id, reference: "ORD-999999" }).execute(), allowed: [] },
    update: { run: (t) => some(t.updateTable("checkout_references").set({ reference: "ORD-999998" }).where("user_id", "=", users.customerA.id).executeTakeFirst()), allowed: [] },
    delete: { run: (t) => some(t.deleteFrom("checkout_references").where("user_id", "=", users.customerA.id).executeTakeFirst()), allowed: [] },
  },
  order_items: {
    select: { run: (t) => some(t.selectFrom("order_items").select("id").where("id", "=", ids.orderItem).execute()), allowed: ["customerA", "admin"] },
    insert: { run: (t) => t.insertInto("order_items").values({ order_id: ids.order, product_id: ids.product, product_name: "X", unit_price: "1.00", quantity: 1, image_path: null }).execute(), allowed: [] },
    update: { run: (t) => some(t.updateTable("order_items").set({ quantity: 9 }).where("id", "=", ids.orderItem).executeTakeFirst()), allowed: [] },
    delete: { run: (t) => some(t.deleteFrom("order_items").where("id", "=", ids.orderItem).executeTakeFirst()), allowed: [] },
  },
  order_status_events: {
    select: { run: (t) => some(t.selectFrom("order_status_events").select("order_id").where("order_id", "=", ids.order).execute()), allowed: ["customerA", "admin"] },
    insert: { run: (t) => t.insertInto("order_status_events").values({ order_id: ids.order, from_status: null, to_status: "complete", changed_by: null }).execute(), allowed: [] },
    update: { run: (t) => some(t.updateTable("order_status_events").set({ to_status: "cancelled" }).where("order_id", "=", ids.order).executeTakeFirst()), allowed: [] },
    delete: { run: (t) => some(t.deleteFrom("order_status_events").where("order_id", "=", ids.order).executeTakeFirst()), allowed: [] },
  },
  contact_messages: {
    select: { run: (t) => some(t.selectFrom("contact_messages").select("id").where("id", "=", ids.message).execute()), allowed: ["admin"] },
    insert: { run: (t) => t.insertInto("contact_messages").values({ name: "Sipho", email: "sipho@example.test", phone: null, message: "Hello", read_at: null }).execute(), allowed: ACTORS },
    update: { run: (t) => some(t.updateTable("contact_messages").set({ read_at: new Date() }).where("id", "=", ids.message).executeTakeFirst()), allowed: ["admin"] },
    delete: { run: (t) => some(t.deleteFrom("contact_messages").where("id", "=", ids.message).executeTakeFirst()), allowed: ["admin"] },
  },
  // The published settings: everyone reads; admins write (the app's write is an upsert).
  shop_settings: {
    select: { run: (t) => some(t.selectFrom("shop_settings").select(["bank_account_number", "contact_email", "unpaid_order_days"]).execute()), allowed: ACTORS },
    insert: {
      run: (t) =>
        t
          .insertInto("shop_settings")
          .values({ ...publishedSettingsRow, bank_account_number: "1234567890" })
          .onConflict((c) => c.column("id").doUpdateSet({ bank_account_number: "1234567890" }))
          .execute(),
      allowed: ["admin"],
    },
    update: { run: (t) => some(t.updateTable("shop_settings").set({ bank_account_number: "1234567890" }).where("id", "=", true).executeTakeFirst()), allowed: ["admin"] },
    delete: { run: (t) => some(t.deleteFrom("shop_settings").where("id", "=", true).executeTakeFirst()), allowed: [] },
  },
  // The order-notice address and who saved last: admins only.
  shop_private_settings: {
    select: { run: (t) => some(t.selectFrom("shop_private_settings").select("orders_email").execute()), allowed: ["admin"] },
    insert: {
      run: (t) =>
        t
          .insertInto("shop_private_settings")
          .values({ orders_email: "orders@example.test" })
          .onConflict((c) => c.column("id").doUpdateSet({ orders_email: "orders@example.test" }))
          .execute(),
      allowed: ["admin"],
    },
    update: { run: (t) => some(t.updateTable("shop_private_settings").set({ orders_email: "x@example.test" }).where("id", "=", true).executeTakeFirst()), allowed: ["admin"] },
    delete: { run: (t) => some(t.deleteFrom("shop_private_settings").where("id", "=", true).executeTakeFirst()), allowed: [] },
  },
  // Stock notices (issue 37): admins read the low-stock notices; only a trigger writes them.
  low_stock_notices: {
    select: { run: (t) => some(t.selectFrom("low_stock_notices").select("id").where("id", "=", ids.lowStockNotice).execute()), allowed: ["admin"] },
    insert: { run: (t) => t.insertInto("low_stock_notices").values({ variant_id: ids.soldOutVariant, stock: 0, low_stock_at: 1 }).execute(), allowed: [] },
    update: { run: (t) => some(t.updateTable("low_stock_notices").set({ stock: 9 }).where("id", "=", ids.lowStockNotice).executeTakeFirst()), allowed: [] },
    delete: { run: (t) => some(t.deleteFrom("low_stock_notices").where("id", "=", ids.lowStockNotice).executeTakeFirst()), allowed: [] },
  },
  // A back-in-stock request is its customer's own (A's here); admins read them; nobody changes one.
  back_in_stock_requests: {
    select: { run: (t) => some(t.selectFrom("back_in_stock_requests").select("id").where("id", "=", ids.request).execute()), allowed: ["customerA", "admin"] },
    // For the caller (user_id is auth.uid(), never given: asking in another's name is refused, stock-notices.test.ts), and only for a sold-out variant.
    insert: { run: (t) => t.insertInto("back_in_stock_requests").values({ variant_id: ids.otherSoldOutVariant }).execute(), allowed: ["customerA", "customerB", "admin"] },
    update: { run: (t) => some(t.updateTable("back_in_stock_requests").set({ created_at: new Date(0) }).where("id", "=", ids.request).executeTakeFirst()), allowed: [] },
    delete: { run: (t) => some(t.deleteFrom("back_in_stock_requests").where("id", "=", ids.request).executeTakeFirst()), allowed: ["customerA"] },
  },
  // Messaging consents (issue 40): the customer's own and admins read them; nobody writes them but
  // give_messaging_consent() / withdraw_messaging_consent() (the caller's own) and the webhook's STOP.
  messaging_consents: {
    select: { run: (t) => some(t.selectFrom("messaging_consents").select("id").where("id", "=", ids.consent).execute()), allowed: ["customerA", "admin"] },
    insert: {
      run: (t) =>
        t.insertInto("messaging_consents").values({ user_id: users.customerB.id, kind: "offers", phone: "+27821234567", source: "profile", words: "Send me offers" }).execute(),
      allowed: [],
    },
    update: { run: (t) => some(t.updateTable("messaging_consents").set({ withdrawn_at: null, withdrawn_via: null }).where("id", "=", ids.consent).executeTakeFirst()), allowed: [] },
    delete: { run: (t) => some(t.deleteFrom("messaging_consents").where("id", "=", ids.consent).executeTakeFirst()), allowed: [] },
  },
  // WhatsApp's settings and the owner's alerts (docs/whatsapp.md): admins only.
  whatsapp_settings: {
    select: { run: (t) => some(t.selectFrom("whatsapp_settings").select("access_token").execute()), allowed: ["admin"] },
    insert: {
      run: (t) =>
        t
          .insertInto("whatsapp_settings")
          .values({ phone_number_id: "106540352242922", access_token: "abc" })
          .onConflict((c) => c.column("id").doUpdateSet({ access_token: "abc" }))
          .execute(),
      allowed: ["admin"],
    },
    update: { run: (t) => some(t.updateTable("whatsapp_settings").set({ app_secret: "x" }).where("id", "=", true).executeTakeFirst()), allowed: ["admin"] },
    delete: { run: (t) => some(t.deleteFrom("whatsapp_settings").where("id", "=", true).executeTakeFirst()), allowed: [] },
  },
  // Online payments (docs/architecture.md#payments): the order's owner and admins read them; nobody writes them
  // through the API (record_online_payment(), for the server's service identity, does).
  payments: {
    select: { run: (t) => some(t.selectFrom("payments").select("id").where("id", "=", ids.payment).execute()), allowed: ["customerA", "admin"] },
    insert: {
      run: (t) =>
        t.insertInto("payments").values({ order_id: ids.order, provider: "payfast", provider_payment_id: randomUUID(), amount: "450.00", outcome: "applied", details: "{}" }).execute(),
      allowed: [],
    },
    update: { run: (t) => some(t.updateTable("payments").set({ outcome: "refund_due" }).where("id", "=", ids.payment).executeTakeFirst()), allowed: [] },
    delete: { run: (t) => some(t.deleteFrom("payments").where("id", "=", ids.payment).executeTakeFirst()), allowed: [] },
  },
  // PayFast's credentials: admins only.
  payment_settings: {
    select: { run: (t) => some(t.selectFrom("payment_settings").select("payfast_merchant_key").execute()), allowed: ["admin"] },
    insert: {
      run: (t) =>
        t
          .insertInto("payment_settings")
          .values({ payfast_merchant_id: "10000100", payfast_merchant_key: "abc" })
          .onConflict((c) => c.column("id").doUpdateSet({ payfast_merchant_key: "abc" }))
          .execute(),
      allowed: ["admin"],
    },
    update: { run: (t) => some(t.updateTable("payment_settings").set({ payfast_passphrase: "x" }).where("id", "=", true).executeTakeFirst()), allowed: ["admin"] },
    delete: { run: (t) => some(t.deleteFrom("payment_settings").where("id", "=", true).executeTakeFirst()), allowed: [] },
  },
  // Fulfilment (docs/architecture.md#delivery-and-collection): settings everyone reads and admins edit; one row, never deleted.
  fulfilment_settings: {
    select: { run: (t) => some(t.selectFrom("fulfilment_settings").select("cutoff_time").execute()), allowed: ACTORS },
    insert: { run: (t) => t.insertInto("fulfilment_settings").values({ id: true }).onConflict((c) => c.column("id").doUpdateSet({ collection_address: "x" })).execute(), allowed: [] },
    update: { run: (t) => some(t.updateTable("fulfilment_settings").set({ collection_address: "1 Main Road" }).where("id", "=", true).executeTakeFirst()), allowed: ["admin"] },
    delete: { run: (t) => some(t.deleteFrom("fulfilment_settings").where("id", "=", true).executeTakeFirst()), allowed: [] },
  },
  // Opening hours (issue 34): seven rows everyone reads and admins edit; none added or deleted.
  opening_hours: {
    select: { run: (t) => some(t.selectFrom("opening_hours").select("weekday").execute()), allowed: ACTORS },
    insert: { run: (t) => t.insertInto("opening_hours").values({ weekday: 1 }).onConflict((c) => c.column("weekday").doUpdateSet({ open: true })).execute(), allowed: [] },
    update: { run: (t) => some(t.updateTable("opening_hours").set({ closes: "17:00" }).where("weekday", "=", 1).executeTakeFirst()), allowed: ["admin"] },
    delete: { run: (t) => some(t.deleteFrom("opening_hours").where("weekday", "=", 7).executeTakeFirst()), allowed: [] },
  },
  // Active areas are public (checkout lists them); a removed one only admins see. Never deleted.
  delivery_areas: {
    select: { run: (t) => some(t.selectFrom("delivery_areas").select("id").where("id", "=", ids.removedArea).execute()), allowed: ["admin"] },
    insert: { run: (t) => t.insertInto("delivery_areas").values({ name: `Area ${randomUUID().slice(0, 8)}`, fee: "10.00" }).execute(), allowed: ["admin"] },
    update: { run: (t) => some(t.updateTable("delivery_areas").set({ fee: "1.00" }).where("id", "=", ids.area).executeTakeFirst()), allowed: ["admin"] },
    delete: { run: (t) => some(t.deleteFrom("delivery_areas").where("id", "=", ids.area).executeTakeFirst()), allowed: [] },
  },
  delivery_areas_active: {
    select: { run: (t) => some(t.selectFrom("delivery_areas").select("id").where("id", "=", ids.area).execute()), allowed: ACTORS },
    insert: { run: (t) => t.insertInto("delivery_areas").values({ name: `Area ${randomUUID().slice(0, 8)}`, fee: "10.00", active: false }).execute(), allowed: ["admin"] },
    update: { run: (t) => some(t.updateTable("delivery_areas").set({ active: false }).where("id", "=", ids.area).executeTakeFirst()), allowed: ["admin"] },
    delete: { run: (t) => some(t.deleteFrom("delivery_areas").where("id", "=", ids.removedArea).executeTakeFirst()), allowed: [] },
  },
  closed_days: {
    select: { run: (t) => some(t.selectFrom("closed_days").select("day").execute()), allowed: ACTORS },
    insert: { run: (t) => t.insertInto("closed_days").values({ day: "2026-12-26", reason: "Day of Goodwill" }).execute(), allowed: ["admin"] },
    update: { run: (t) => some(t.updateTable("closed_days").set({ reason: "Changed" }).where("day", "=", "2026-12-25").executeTakeFirst()), allowed: ["admin"] },
    delete: { run: (t) => some(t.deleteFrom("closed_days").where("day", "=", "2026-12-25").executeTakeFirst()), allowed: ["admin"] },
  },
  // Bookable services (issue 38): everyone reads a service's settings and hours; admins write them.
  bookable_services: {
    select: { run: (t) => some(t.selectFrom("bookable_services").select("product_id").execute()), allowed: ACTORS },
    insert: { run: (t) => t.insertInto("bookable_services").values({ product_id: ids.spareProduct, duration_minutes: 60 }).execute(), allowed: ["admin"] },
    update: { run: (t) => some(t.updateTable("bookable_services").set({ capacity: 3 }).where("product_id", "=", ids.service).executeTakeFirst()), allowed: ["admin"] },
    delete: { run: (t) => some(t.deleteFrom("bookable_services").where("product_id", "=", ids.service).executeTakeFirst()), allowed: ["admin"] },
  },
  bookable_service_hours: {
    select: { run: (t) => some(t.selectFrom("bookable_service_hours").select("weekday").execute()), allowed: ACTORS },
    insert: { run: (t) => t.insertInto("bookable_service_hours").values({ product_id: ids.service, weekday: 2 }).execute(), allowed: ["admin"] },
    update: { run: (t) => some(t.updateTable("bookable_service_hours").set({ closes: "13:00" }).where("product_id", "=", ids.service).executeTakeFirst()), allowed: ["admin"] },
    delete: { run: (t) => some(t.deleteFrom("bookable_service_hours").where("product_id", "=", ids.service).executeTakeFirst()), allowed: ["admin"] },
  },
  // A booking: its customer and admins read it; only place_order and the order's status write it.
  bookings: {
    select: { run: (t) => some(t.selectFrom("bookings").select("id").where("id", "=", ids.booking).execute()), allowed: ["customerA", "admin"] },
    insert: {
      run: (t) => t.insertInto("bookings").values({ order_id: ids.order, order_item_id: ids.orderItem, user_id: users.customerA.id, product_id: ids.service, starts_at: "2026-12-03T08:00:00Z", ends_at: "2026-12-03T09:00:00Z", free_at: "2026-12-03T09:00:00Z", location: "shop" }).execute(),
      allowed: [],
    },
    update: { run: (t) => some(t.updateTable("bookings").set({ status: "cancelled" }).where("id", "=", ids.booking).executeTakeFirst()), allowed: [] },
    delete: { run: (t) => some(t.deleteFrom("bookings").where("id", "=", ids.booking).executeTakeFirst()), allowed: [] },
  },
  // Blocked times: admins only (free_slots() reads them for everyone, saying only when).
  booking_blocks: {
    select: { run: (t) => some(t.selectFrom("booking_blocks").select("id").where("id", "=", ids.block).execute()), allowed: ["admin"] },
    insert: {
      run: (t) => t.insertInto("booking_blocks").values({ product_id: ids.service, starts_at: "2026-12-05T12:00:00Z", ends_at: "2026-12-05T15:00:00Z", reason: "Team training" }).execute(),
      allowed: ["admin"],
    },
    update: { run: (t) => some(t.updateTable("booking_blocks").set({ reason: "Changed" }).where("id", "=", ids.block).executeTakeFirst()), allowed: [] },
    delete: { run: (t) => some(t.deleteFrom("booking_blocks").where("id", "=", ids.block).executeTakeFirst()), allowed: ["admin"] },
  },
  // Capacity: admins read it; only place_order and the status trigger write it.
  daily_capacity: {
    select: { run: (t) => some(t.selectFrom("daily_capacity").select("reserved").execute()), allowed: ["admin"] },
    insert: { run: (t) => t.insertInto("daily_capacity").values({ category_id: ids.emptyCategory, day: "2026-12-02", reserved: 1 }).execute(), allowed: [] },
    update: { run: (t) => some(t.updateTable("daily_capacity").set({ reserved: 0 }).where("category_id", "=", ids.category).executeTakeFirst()), allowed: [] },
    delete: { run: (t) => some(t.deleteFrom("daily_capacity").where("category_id", "=", ids.category).executeTakeFirst()), allowed: [] },
  },
  order_capacity: {
    select: { run: (t) => some(t.selectFrom("order_capacity").select("quantity").execute()), allowed: ["admin"] },
    insert: { run: (t) => t.insertInto("order_capacity").values({ order_id: ids.order, category_id: ids.emptyCategory, day: "2026-12-02", quantity: 1 }).execute(), allowed: [] },
    update: { run: (t) => some(t.updateTable("order_capacity").set({ quantity: 9 }).where("order_id", "=", ids.order).executeTakeFirst()), allowed: [] },
    delete: { run: (t) => some(t.deleteFrom("order_capacity").where("order_id", "=", ids.order).executeTakeFirst()), allowed: [] },
  },
  // The sales overview's rollup (20261202000000_sales_rollup.sql): admins read it; only the
  // orders' triggers write it (A's order, paid online below, put rows in both).
  sales_days: {
    select: { run: (t) => some(t.selectFrom("sales_days").select("day").execute()), allowed: ["admin"] },
    insert: { run: (t) => t.insertInto("sales_days").values({ day: "2000-01-01", revenue: "1.00", orders: 1 }).execute(), allowed: [] },
    update: { run: (t) => some(t.updateTable("sales_days").set({ orders: 99 }).executeTakeFirst()), allowed: [] },
    delete: { run: (t) => some(t.deleteFrom("sales_days").executeTakeFirst()), allowed: [] },
  },
  sales_day_products: {
    select: { run: (t) => some(t.selectFrom("sales_day_products").select("day").execute()), allowed: ["admin"] },
    insert: {
      run: (t) => t.insertInto("sales_day_products").values({ day: "2000-01-01", product_id: ids.product, product_name: "X", revenue: "1.00", units: "1", lines: 1 }).execute(),
      allowed: [],
    },
    update: { run: (t) => some(t.updateTable("sales_day_products").set({ lines: 99 }).executeTakeFirst()), allowed: [] },
    delete: { run: (t) => some(t.deleteFrom("sales_day_products").executeTakeFirst()), allowed: [] },
  },
  // Quotes (docs/quotes.md): a customer reads their own request and the versions sent to them,
  // admins everything; nobody writes them but the quote functions.
  quote_requests: {
    select: { run: (t) => some(t.selectFrom("quote_requests").select("id").where("id", "=", ids.quoteRequest).execute()), allowed: ["customerA", "admin"] },
    insert: {
      run: (t) => t.insertInto("quote_requests").values({ user_id: users.customerA.id, customer_name: "A", customer_email: "a@example.test", description: "More", items: "[]" }).execute(),
      allowed: [],
    },
    update: { run: (t) => some(t.updateTable("quote_requests").set({ description: "Changed" }).where("id", "=", ids.quoteRequest).executeTakeFirst()), allowed: [] },
    delete: { run: (t) => some(t.deleteFrom("quote_requests").where("id", "=", ids.quoteRequest).executeTakeFirst()), allowed: [] },
  },
  quotes: {
    select: { run: (t) => some(t.selectFrom("quotes").select("id").where("id", "=", ids.quote).execute()), allowed: ["customerA", "admin"] },
    insert: { run: (t) => t.insertInto("quotes").values({ request_id: ids.quoteRequest, version: 9, valid_until: "2099-01-01", created_by: null }).execute(), allowed: [] },
    update: { run: (t) => some(t.updateTable("quotes").set({ status: "accepted" }).where("id", "=", ids.quote).executeTakeFirst()), allowed: [] },
    delete: { run: (t) => some(t.deleteFrom("quotes").where("id", "=", ids.quote).executeTakeFirst()), allowed: [] },
  },
  // A version still in draft is the admins' alone.
  "quotes (draft)": {
    select: { run: (t) => some(t.selectFrom("quotes").select("id").where("id", "=", ids.draftQuote).execute()), allowed: ["admin"] },
    insert: { run: (t) => t.insertInto("quotes").values({ request_id: ids.quoteRequest, version: 8, valid_until: "2099-01-01", created_by: null }).execute(), allowed: [] },
    update: { run: (t) => some(t.updateTable("quotes").set({ note: "Changed" }).where("id", "=", ids.draftQuote).executeTakeFirst()), allowed: [] },
    delete: { run: (t) => some(t.deleteFrom("quotes").where("id", "=", ids.draftQuote).executeTakeFirst()), allowed: [] },
  },
  quote_lines: {
    select: { run: (t) => some(t.selectFrom("quote_lines").select("id").where("id", "=", ids.quoteLine).execute()), allowed: ["customerA", "admin"] },
    insert: {
      run: (t) => t.insertInto("quote_lines").values({ quote_id: ids.quote, position: 5, is_custom: true, description: "Extra", quantity: 1, unit_price: "1.00", product_id: null, variant_id: null }).execute(),
      allowed: [],
    },
    update: { run: (t) => some(t.updateTable("quote_lines").set({ unit_price: "1.00" }).where("id", "=", ids.quoteLine).executeTakeFirst()), allowed: [] },
    delete: { run: (t) => some(t.deleteFrom("quote_lines").where("id", "=", ids.quoteLine).executeTakeFirst()), allowed: [] },
  },
  "quote_lines (draft)": {
    select: { run: (t) => some(t.selectFrom("quote_lines").select("id").where("id", "=", ids.draftLine).execute()), allowed: ["admin"] },
    insert: {
      run: (t) => t.insertInto("quote_lines").values({ quote_id: ids.draftQuote, position: 5, is_custom: true, description: "Extra", quantity: 1, unit_price: "1.00", product_id: null, variant_id: null }).execute(),
      allowed: [],
    },
    update: { run: (t) => some(t.updateTable("quote_lines").set({ unit_price: "1.00" }).where("id", "=", ids.draftLine).executeTakeFirst()), allowed: [] },
    delete: { run: (t) => some(t.deleteFrom("quote_lines").where("id", "=", ids.draftLine).executeTakeFirst()), allowed: [] },
  },
  quote_files: {
    select: { run: (t) => some(t.selectFrom("quote_files").select("id").where("id", "=", ids.quoteFile).execute()), allowed: ["customerA", "admin"] },
    insert: { run: (t) => t.insertInto("quote_files").values({ request_id: ids.quoteRequest, path: `${users.customerB.id}/x.png`, file_name: "x.png" }).execute(), allowed: [] },
    update: { run: (t) => some(t.updateTable("quote_files").set({ file_name: "y.png" }).where("id", "=", ids.quoteFile).executeTakeFirst()), allowed: [] },
    delete: { run: (t) => some(t.deleteFrom("quote_files").where("id", "=", ids.quoteFile).executeTakeFirst()), allowed: [] },
  },
  quote_messages: {
    select: { run: (t) => some(t.selectFrom("quote_messages").select("id").where("id", "=", ids.quoteMessage).execute()), allowed: ["customerA", "admin"] },
    insert: {
      run: (t) => t.insertInto("quote_messages").values({ request_id: ids.quoteRequest, quote_id: null, author_id: null, from_customer: true, kind: "change", body: "Cheaper" }).execute(),
      allowed: [],
    },
    update: { run: (t) => some(t.updateTable("quote_messages").set({ body: "Changed" }).where("id", "=", ids.quoteMessage).executeTakeFirst()), allowed: [] },
    delete: { run: (t) => some(t.deleteFrom("quote_messages").where("id", "=", ids.quoteMessage).executeTakeFirst()), allowed: [] },
  },
  quote_counters: {
    select: { run: (t) => some(t.selectFrom("quote_counters").select("last_number").execute()), allowed: ["admin"] },
    insert: { run: (t) => t.insertInto("quote_counters").values({ id: false, last_number: "0" }).execute(), allowed: [] },
    update: { run: (t) => some(t.updateTable("quote_counters").set({ last_number: "0" }).executeTakeFirst()), allowed: [] },
    delete: { run: (t) => some(t.deleteFrom("quote_counters").executeTakeFirst()), allowed: [] },
  },
};

/** A complete published settings row, as the insert cell proposes it. */
const publishedSettingsRow = {
  bank_account_name: "Our World Services (Pty) Ltd",
  bank_name: "First National Bank",
  bank_account_number: "62812345678",
  bank_branch_code: "250655",
  bank_account_type: "Cheque",
  contact_phone: "+27 11 555 0142",
  contact_email: "hello@example.test",
  information_officer_name: "The owner",
  information_officer_email: "hello@example.test",
} as const;

beforeAll(async () => {
  db = await freshDatabase({ seed: false });
  users = {
    customerA: await createUser(db, { fullName: "Customer A" }),
    customerB: await createUser(db, { fullName: "Customer B" }),
    admin: await createUser(db, { role: "admin", fullName: "Admin" }),
  };
  const k = db.kysely;
  ids.category = (await k.insertInto("categories").values({ name: "Cleaning & Laundry" }).returning("id").executeTakeFirstOrThrow()).id;
  ids.emptyCategory = (await k.insertInto("categories").values({ name: "Empty" }).returning("id").executeTakeFirstOrThrow()).id;
  ids.product = (await k.insertInto("products").values({ name: "Carpet clean", price: "450.00", category_id: ids.category, image_path: null }).returning("id").executeTakeFirstOrThrow()).id;
  ids.spareProduct = (await k.insertInto("products").values({ name: "Spare", price: "20.00", category_id: ids.category, image_path: null }).returning("id").executeTakeFirstOrThrow()).id;
  ids.picture = (await k.insertInto("product_images").values({ product_id: ids.product, path: "1_front.png", alt: "Front", position: 1, is_card: true }).returning("id").executeTakeFirstOrThrow()).id;
  // A's order, placed through the real function; then a fresh line in A's cart.
  const placed = await placeTestOrder(db, users.customerA, [ids.product]);
  ids.order = placed.id;
  ids.orderItem = (await k.selectFrom("order_items").select("id").where("order_id", "=", ids.order).executeTakeFirstOrThrow()).id;
  await placeTestOrder(db, users.customerB, [ids.product]);
  ids.cartLine = await runAs(k, users.customerA.identity, async (t) => {
    await t.insertInto("cart_items").values({ user_id: users.customerA.id, product_id: ids.product, variant_id: (eb) => eb.selectFrom("product_variants").select("id").where("product_id", "=", ids.product) }).execute();
    return (await t.selectFrom("cart_items").select("id").executeTakeFirstOrThrow()).id;
  });
  // A's open checkout reference, reserved for that fresh cart line.
  await runAs(k, users.customerA.identity, openReference);
  ids.message = (await k.insertInto("contact_messages").values({ name: "Lerato", email: "lerato@example.test", phone: null, message: "Quote please", read_at: null }).returning("id").executeTakeFirstOrThrow()).id;
  await k.transaction().execute((trx) => insertMissingSettings(trx, configuredShopSettings()));
  await k.insertInto("payment_settings").values({ payfast_merchant_id: "10000100", payfast_merchant_key: "46f0cd694581a" }).execute();
  await k.insertInto("whatsapp_settings").values({ phone_number_id: "106540352242922", access_token: "EAAGtoken" }).execute();
  // A's order paid online, as the server records a verified notification.
  await runAs(k, SERVICE, (t) =>
    sql`select public.record_online_payment('payfast', '1089250', ${ids.order}::uuid, 450.00, '{}'::jsonb)`.execute(t),
  );
  ids.payment = (await k.selectFrom("payments").select("id").where("order_id", "=", ids.order).executeTakeFirstOrThrow()).id;
  ids.area = (await k.insertInto("delivery_areas").values({ name: "Sandton", fee: "60.00" }).returning("id").executeTakeFirstOrThrow()).id;
  ids.removedArea = (await k.insertInto("delivery_areas").values({ name: "Soweto", fee: "80.00", active: false }).returning("id").executeTakeFirstOrThrow()).id;
  // A password reset link of customer A's (issue 34): only the server's own connection writes or reads these.
  await k.insertInto("private.account_tokens").values({ token_hash: "a".repeat(64), kind: "password_reset", user_id: users.customerA.id, new_email: null, expires_at: new Date(Date.now() + 3_600_000) }).execute();
  await k.insertInto("closed_days").values({ day: "2026-12-25", reason: "Christmas Day" }).execute();
  // A bookable service with its own Monday hours, and a booking of A's (written directly: the rows matter, not how).
  ids.service = (await k.insertInto("products").values({ name: "Office clean", price: "900.00", category_id: ids.category, image_path: null }).returning("id").executeTakeFirstOrThrow()).id;
  await k.insertInto("bookable_services").values({ product_id: ids.service, duration_minutes: 120 }).execute();
  await k.insertInto("bookable_service_hours").values({ product_id: ids.service, weekday: 1, opens: "08:00", closes: "12:00" }).execute();
  ids.booking = (await k.insertInto("bookings").values({ order_id: ids.order, order_item_id: ids.orderItem, user_id: users.customerA.id, product_id: ids.service, starts_at: "2026-12-02T08:00:00Z", ends_at: "2026-12-02T10:00:00Z", free_at: "2026-12-02T10:00:00Z", location: "customer_address" }).returning("id").executeTakeFirstOrThrow()).id;
  ids.block = (await k.insertInto("booking_blocks").values({ product_id: ids.service, starts_at: "2026-12-04T12:00:00Z", ends_at: "2026-12-04T15:00:00Z" }).returning("id").executeTakeFirstOrThrow()).id;
  // Capacity as place_order leaves it for A's order (written directly: the rows matter, not how).
  await k.insertInto("daily_capacity").values({ category_id: ids.category, day: "2026-12-02", reserved: 1 }).execute();
  await k.insertInto("order_capacity").values({ order_id: ids.order, category_id: ids.category, day: "2026-12-02", quantity: 1 }).execute();
  // A sold-out variant that came down past its mark (one low-stock notice), and A's request for it.
  const soldOut = (await k.insertInto("products").values({ name: "Sold-out mug", price: "80.00", category_id: ids.category, image_path: null }).returning("id").executeTakeFirstOrThrow()).id;
  await k.updateTable("product_variants").set({ stock: 3, low_stock_at: 1 }).where("product_id", "=", soldOut).execute();
  ids.soldOutVariant = (await k.updateTable("product_variants").set({ stock: 0 }).where("product_id", "=", soldOut).returning("id").executeTakeFirstOrThrow()).id;
  ids.lowStockNotice = (await k.selectFrom("low_stock_notices").select("id").where("variant_id", "=", ids.soldOutVariant).executeTakeFirstOrThrow()).id;
  const otherSoldOut = (await k.insertInto("products").values({ name: "Sold-out cap", price: "90.00", category_id: ids.category, image_path: null }).returning("id").executeTakeFirstOrThrow()).id;
  ids.otherSoldOutVariant = (await k.updateTable("product_variants").set({ stock: 0 }).where("product_id", "=", otherSoldOut).returning("id").executeTakeFirstOrThrow()).id;
  ids.request = (await k.insertInto("back_in_stock_requests").values({ user_id: users.customerA.id, variant_id: ids.soldOutVariant }).returning("id").executeTakeFirstOrThrow()).id;
  ids.consent = (
    await k.insertInto("messaging_consents").values({ user_id: users.customerA.id, kind: "whatsapp_updates", phone: "+27821234567", source: "profile", words: "Send my order updates on WhatsApp" }).returning("id").executeTakeFirstOrThrow()
  ).id;
  // A's quote request with a sent version (one line), a draft of the next, a file and a message
  // (written directly: the rows matter, not how; tests/api/quotes.test.ts goes through the functions).
  ids.quoteRequest = (
    await k.insertInto("quote_requests").values({ user_id: users.customerA.id, customer_name: "Customer A", customer_email: users.customerA.email, description: "Shirts", items: "[]" }).returning("id").executeTakeFirstOrThrow()
  ).id;
  ids.quote = (await k.insertInto("quotes").values({ request_id: ids.quoteRequest, version: 1, valid_until: "2099-01-01", created_by: users.admin.id }).returning("id").executeTakeFirstOrThrow()).id;
  ids.quoteLine = (
    await k.insertInto("quote_lines").values({ quote_id: ids.quote, position: 0, is_custom: true, description: "Set-up", quantity: 1, unit_price: "450.00", product_id: null, variant_id: null }).returning("id").executeTakeFirstOrThrow()
  ).id;
  await k.updateTable("quotes").set({ status: "sent", sent_at: new Date(), total: "450.00" }).where("id", "=", ids.quote).execute();
  ids.draftQuote = (await k.insertInto("quotes").values({ request_id: ids.quoteRequest, version: 2, valid_until: "2099-01-01", created_by: users.admin.id }).returning("id").executeTakeFirstOrThrow()).id;
  ids.draftLine = (
    await k.insertInto("quote_lines").values({ quote_id: ids.draftQuote, position: 0, is_custom: true, description: "Set-up", quantity: 1, unit_price: "400.00", product_id: null, variant_id: null }).returning("id").executeTakeFirstOrThrow()
  ).id;
  ids.quoteFile = (await k.insertInto("quote_files").values({ request_id: ids.quoteRequest, path: `${users.customerA.id}/1_logo.png`, file_name: "logo.png" }).returning("id").executeTakeFirstOrThrow()).id;
  ids.quoteMessage = (
    await k.insertInto("quote_messages").values({ request_id: ids.quoteRequest, quote_id: ids.quote, author_id: users.customerA.id, from_customer: true, kind: "change", body: "Navy please" }).returning("id").executeTakeFirstOrThrow()
  ).id;
  const orphan = await createUser(db);
  await k.deleteFrom("profiles").where("id", "=", orphan.id).execute();
  ids.noProfileUser = orphan.id;
});

afterAll(async () => {
  await db?.close();
});

describe("row-level security matches the role table", () => {
  for (const [table, ops] of Object.entries(matrix)) {
    describe(table, () => {
      for (const [op, cell] of Object.entries(ops)) {
        for (const actor of ACTORS) {
          const expected = cell.allowed.includes(actor);
          it(`${op} by ${actor} is ${expected ? "allowed" : "refused"}`, async () => {
            const result = await attempt(db, identityOf(actor), cell.run);
            const allowed = result.ok && result.value !== false;
            expect(allowed, String(result.error ?? "")).toBe(expected);
          });
        }
      }
    });
  }
});

describe("privileges beyond rows", () => {
  it("no API role may record a payment, or read the order a notification names: the server's service identity only", async () => {
    for (const actor of ACTORS) {
      const record = await attempt(db, identityOf(actor), (t) =>
        sql`select public.record_online_payment('payfast', ${randomUUID()}, ${ids.order}::uuid, 450.00, '{}'::jsonb)`.execute(t),
      );
      expect(record.ok, actor).toBe(false);
      const read = await attempt(db, identityOf(actor), (t) => sql`select * from public.order_for_payment(${ids.order}::uuid)`.execute(t));
      expect(read.ok, actor).toBe(false);
    }
  });

  it("a customer cannot make themselves admin", async () => {
    const result = await attempt(db, users.customerA.identity, (t) =>
      t.updateTable("profiles").set({ role: "admin" }).where("id", "=", users.customerA.id).execute(),
    );
    expect(result.ok).toBe(false);
  });

  it("an admin can change only an order's status, not its total", async () => {
    const result = await attempt(db, users.admin.identity, (t) =>
      t.updateTable("orders").set({ total: "1.00" }).where("id", "=", ids.order).execute(),
    );
    expect(result.ok).toBe(false);
  });

  it("a customer cannot add an unavailable product to their cart directly", async () => {
    await db.kysely.updateTable("products").set({ available: false }).where("id", "=", ids.spareProduct).execute();
    const result = await attempt(db, users.customerB.identity, (t) =>
      t.insertInto("cart_items").values({ user_id: users.customerB.id, product_id: ids.spareProduct, variant_id: (eb) => eb.selectFrom("product_variants").select("id").where("product_id", "=", ids.spareProduct) }).execute(),
    );
    await db.kysely.updateTable("products").set({ available: true }).where("id", "=", ids.spareProduct).execute();
    expect(result.ok).toBe(false);
  });
});
