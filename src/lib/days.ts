/**
 * Delivery and collection days (docs/architecture.md#delivery-and-collection) are calendar days in South African time,
 * carried as YYYY-MM-DD everywhere; these name them for people.
 */

const SHOP_TIME_ZONE = "Africa/Johannesburg";

/** "Wednesday 2 December 2026". */
export function formatDay(day: string): string {
  return new Intl.DateTimeFormat("en-GB", { weekday: "long", day: "numeric", month: "long", year: "numeric", timeZone: "UTC" }).format(new Date(`${day}T12:00:00Z`));
}

/** "Wed 2 Dec": the day picker's short label. */
export function formatShortDay(day: string): string {
  return new Intl.DateTimeFormat("en-GB", { weekday: "short", day: "numeric", month: "short", timeZone: "UTC" }).format(new Date(`${day}T12:00:00Z`));
}

/** Today in South Africa plus `offset` days, as YYYY-MM-DD ("Tomorrow" in Order Management). */
export function shopDay(offset = 0, now = new Date()): string {
  const today = new Intl.DateTimeFormat("en-CA", { timeZone: SHOP_TIME_ZONE, year: "numeric", month: "2-digit", day: "2-digit" }).format(now);
  const date = new Date(`${today}T12:00:00Z`);
  date.setUTCDate(date.getUTCDate() + offset);
  return date.toISOString().slice(0, 10);
}

/** ISO weekday names, 1 Monday ... 7 Sunday (closed weekdays in the settings). */
export const WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"] as const;
