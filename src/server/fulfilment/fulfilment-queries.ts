import { sql } from "kysely";
import type { Tx } from "@/server/db/as-caller";
import type { OpeningDay } from "@/lib/opening-hours";
import type { FulfilmentMethod } from "@/server/db/schema";
import type { RawPersonalisation } from "@/server/cart/cart-queries";

/** The fulfilment settings as forms and checkout use them (rows readable by everyone). */
export interface FulfilmentSettings {
  collectionEnabled: boolean;
  collectionAddress: string;
  /** "HH:MM", South African time. */
  cutoffTime: string;
  /** Monday ... Sunday: the days offered at checkout are the open ones. */
  openingHours: OpeningDay[];
}

export interface DeliveryArea {
  id: string;
  name: string;
  /** "60.00" */
  fee: string;
  minimumOrder: string | null;
  active: boolean;
}

export interface ClosedDay {
  day: string;
  reason: string;
}

export async function readFulfilmentSettings(trx: Tx): Promise<FulfilmentSettings> {
  const row = await trx
    .selectFrom("fulfilment_settings")
    .select(["collection_enabled", "collection_address", sql<string>`to_char(cutoff_time, 'HH24:MI')`.as("cutoff")])
    .where("id", "=", true)
    .executeTakeFirstOrThrow();
  return {
    collectionEnabled: row.collection_enabled,
    collectionAddress: row.collection_address,
    cutoffTime: row.cutoff,
    openingHours: await readOpeningHours(trx),
  };
}

/** The week's opening hours (RLS: everyone reads), Monday first. */
export async function readOpeningHours(trx: Tx): Promise<OpeningDay[]> {
  const rows = await trx
    .selectFrom("opening_hours")
    .select(["weekday", "open", sql<string>`to_char(opens, 'HH24:MI')`.as("opens"), sql<string>`to_char(closes, 'HH24:MI')`.as("closes")])
    .orderBy("weekday")
    .execute();
  return rows.map((row) => ({ weekday: Number(row.weekday), open: row.open, opens: row.opens, closes: row.closes }));
}

/** Saves the settings (RLS: admins only); false if the caller may not (no row updated). */
export async function saveFulfilmentSettings(trx: Tx, values: FulfilmentSettings): Promise<boolean> {
  const result = await trx
    .updateTable("fulfilment_settings")
    .set({
      collection_enabled: values.collectionEnabled,
      collection_address: values.collectionAddress,
      cutoff_time: values.cutoffTime,
    })
    .where("id", "=", true)
    .executeTakeFirst();
  if (result.numUpdatedRows === 0n) return false;
  for (const day of values.openingHours) {
    const updated = await trx.updateTable("opening_hours").set({ open: day.open, opens: day.opens, closes: day.closes }).where("weekday", "=", day.weekday).executeTakeFirst();
    // Seven rows always exist (the migration made them): a miss rolls the whole save back.
    if (updated.numUpdatedRows === 0n) throw new Error(`opening_hours has no row for weekday ${day.weekday}`);
  }
  return true;
}

/** Delivery areas (RLS: everyone sees the active ones, admins also the removed), by name. */
export async function listDeliveryAreas(trx: Tx, options: { activeOnly: boolean }): Promise<DeliveryArea[]> {
  let query = trx.selectFrom("delivery_areas").select(["id", "name", "fee", "minimum_order", "active"]).orderBy("active", "desc").orderBy("name");
  if (options.activeOnly) query = query.where("active", "=", true);
  const rows = await query.execute();
  return rows.map((row) => ({ id: row.id, name: row.name, fee: row.fee, minimumOrder: row.minimum_order, active: row.active }));
}

/** Adds or changes an area; null if it is gone (or the caller may not). */
export async function saveDeliveryArea(trx: Tx, area: { id?: string; name: string; fee: string; minimumOrder: string | null }) {
  const values = { name: area.name, fee: area.fee, minimum_order: area.minimumOrder };
  if (!area.id) return trx.insertInto("delivery_areas").values(values).returning(["id", "name"]).executeTakeFirst();
  return trx.updateTable("delivery_areas").set(values).where("id", "=", area.id).where("active", "=", true).returning(["id", "name"]).executeTakeFirst();
}

/** Removes an area from checkout: it stays for the orders that point at it. */
export function deactivateDeliveryArea(trx: Tx, id: string) {
  return trx.updateTable("delivery_areas").set({ active: false }).where("id", "=", id).where("active", "=", true).returning("name").executeTakeFirst();
}

/** Closed days from today (SAST) on, soonest first. */
export async function listClosedDays(trx: Tx): Promise<ClosedDay[]> {
  const { rows } = await sql<ClosedDay>`
    select day::text as day, reason from public.closed_days
    where day >= (now() at time zone 'Africa/Johannesburg')::date order by day`.execute(trx);
  return rows;
}

export async function addClosedDay(trx: Tx, day: ClosedDay) {
  await trx
    .insertInto("closed_days")
    .values({ day: day.day, reason: day.reason })
    .onConflict((c) => c.column("day").doUpdateSet({ reason: day.reason }))
    .execute();
}

export async function removeClosedDay(trx: Tx, day: string) {
  const result = await trx.deleteFrom("closed_days").where("day", "=", day).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** The days the caller's cart can be delivered or collected (fulfilment_days(), at now()). */
export async function offeredDays(trx: Tx): Promise<string[]> {
  const { rows } = await sql<{ day: string }>`select d::text as day from public.fulfilment_days() as d`.execute(trx);
  return rows.map((row) => row.day);
}

/** The address the caller kept ("Keep this address for next time"), if its area is still active. */
export async function keptAddress(trx: Tx, userId: string): Promise<{ address: string; areaId: string | null } | null> {
  const row = await trx
    .selectFrom("profiles as p")
    .leftJoin("delivery_areas as a", (join) => join.onRef("a.id", "=", "p.delivery_area_id").on("a.active", "=", true))
    .select(["p.delivery_address", "a.id as area_id"])
    .where("p.id", "=", userId)
    .executeTakeFirst();
  return row?.delivery_address ? { address: row.delivery_address, areaId: row.area_id } : null;
}

/** Product dashboard: every product's lead time and every category's daily limit. */
export async function listLeadTimes(trx: Tx) {
  const [products, categories] = await Promise.all([
    trx.selectFrom("products").select(["id", "name", "category_id", "lead_time_days"]).orderBy("name").execute(),
    trx.selectFrom("categories").select(["id", "name", "daily_limit"]).orderBy("name").execute(),
  ]);
  return {
    products: products.map((p) => ({ id: p.id, name: p.name, categoryId: p.category_id, leadTimeDays: p.lead_time_days })),
    categories: categories.map((c) => ({ id: c.id, name: c.name, dailyLimit: c.daily_limit })),
  };
}

export function setLeadTime(trx: Tx, productId: string, days: number) {
  return trx.updateTable("products").set({ lead_time_days: days }).where("id", "=", productId).returning("name").executeTakeFirst();
}

export function setDailyLimit(trx: Tx, categoryId: string, limit: number | null) {
  return trx.updateTable("categories").set({ daily_limit: limit }).where("id", "=", categoryId).returning("name").executeTakeFirst();
}

/** One order on a day's run sheet (admins: RLS shows them every order). */
export interface RunSheetOrder {
  id: string;
  reference: string;
  status: string;
  method: FulfilmentMethod;
  customerName: string;
  customerEmail: string;
  address: string | null;
  area: string | null;
  total: string;
  deliveryFee: string;
  items: { name: string; quantity: number; personalisation: RawPersonalisation[] }[];
}

/** The day's orders that are not cancelled, deliveries by area then collections. */
export async function runSheetOrders(trx: Tx, day: string): Promise<RunSheetOrder[]> {
  const rows = await trx
    .selectFrom("orders as o")
    .select([
      "o.id",
      "o.reference",
      "o.status",
      "o.fulfilment_method",
      "o.customer_name",
      "o.customer_email",
      "o.delivery_address",
      "o.delivery_area_name",
      "o.total",
      "o.delivery_fee",
      sql<RunSheetOrder["items"]>`coalesce((
        select json_agg(json_build_object('name', i.product_name, 'quantity', i.quantity, 'personalisation', i.personalisation) order by i.product_name, i.id)
        from public.order_items i where i.order_id = o.id and i.product_id is not null), '[]'::json)`.as("items"),
    ])
    .where("o.fulfilment_day", "=", day)
    .where("o.status", "<>", "cancelled")
    .orderBy("o.fulfilment_method", "desc")
    .orderBy("o.delivery_area_name")
    .orderBy("o.reference")
    .execute();
  return rows.map((row) => ({
    id: row.id,
    reference: row.reference,
    status: row.status,
    method: row.fulfilment_method ?? "collection",
    customerName: row.customer_name,
    customerEmail: row.customer_email,
    address: row.delivery_address,
    area: row.delivery_area_name,
    total: row.total,
    deliveryFee: row.delivery_fee,
    items: typeof row.items === "string" ? (JSON.parse(row.items) as RunSheetOrder["items"]) : row.items,
  }));
}
