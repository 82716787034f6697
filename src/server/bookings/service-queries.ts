import type { Tx } from "@/server/db/as-caller";
import type { BookingSettings } from "./schemas";

/** A product's booking settings (null: not a bookable service) with its own weekday hours, as the admin edits them. */
export async function readServiceSettings(trx: Tx, productId: string): Promise<BookingSettings | null> {
  const row = await trx.selectFrom("bookable_services").selectAll().where("product_id", "=", productId).executeTakeFirst();
  if (!row) return null;
  const hours = await trx
    .selectFrom("bookable_service_hours")
    .select(["weekday", "open", "opens", "closes"])
    .where("product_id", "=", productId)
    .orderBy("weekday")
    .execute();
  return {
    durationMinutes: row.duration_minutes,
    bufferMinutes: row.buffer_minutes,
    capacity: row.capacity,
    noticeHours: row.notice_hours,
    horizonDays: row.horizon_days,
    location: row.location,
    deposit: row.deposit,
    depositPercent: row.deposit_percent,
    refundUntilHours: row.refund_until_hours,
    hours: hours.map((day) => ({ weekday: day.weekday, mode: day.open ? "open" : "closed", opens: day.opens.slice(0, 5), closes: day.closes.slice(0, 5) })),
  };
}

/** Saves a product's booking settings (admins; RLS checks again), or removes them (null). Its product's name; undefined if there is no such product. */
export async function saveServiceSettings(trx: Tx, productId: string, settings: BookingSettings | null): Promise<string | undefined> {
  const product = await trx.selectFrom("products").select("name").where("id", "=", productId).executeTakeFirst();
  if (!product) return undefined;
  if (!settings) {
    await trx.deleteFrom("bookable_services").where("product_id", "=", productId).execute();
    return product.name;
  }
  const values = {
    duration_minutes: settings.durationMinutes,
    buffer_minutes: settings.bufferMinutes,
    capacity: settings.capacity,
    notice_hours: settings.noticeHours,
    horizon_days: settings.horizonDays,
    location: settings.location,
    deposit: settings.deposit,
    deposit_percent: settings.depositPercent,
    refund_until_hours: settings.refundUntilHours,
  };
  await trx
    .insertInto("bookable_services")
    .values({ product_id: productId, ...values })
    .onConflict((conflict) => conflict.column("product_id").doUpdateSet(values))
    .execute();
  await trx.deleteFrom("bookable_service_hours").where("product_id", "=", productId).execute();
  const own = settings.hours.filter((day) => day.mode !== "shop");
  if (own.length > 0) {
    await trx
      .insertInto("bookable_service_hours")
      .values(own.map((day) => ({ product_id: productId, weekday: day.weekday, open: day.mode === "open", opens: day.opens, closes: day.closes })))
      .execute();
  }
  return product.name;
}
