/**
 * The shop's days and times, in South African time whatever the server's or browser's zone: the
 * one place TypeScript names the zone (SQL says 'Africa/Johannesburg' itself). Days (delivery and
 * collection, the overview's ranges; docs/architecture.md#delivery-and-collection) are calendar
 * days carried as YYYY-MM-DD everywhere; these compute them and name them for people.
 */

export const SHOP_TIME_ZONE = "Africa/Johannesburg";

// Made once: each Intl.DateTimeFormat holds ICU objects that are dear to build (orders-csv.ts says how dear).
const dayOfFormat = new Intl.DateTimeFormat("en-CA", { timeZone: SHOP_TIME_ZONE, year: "numeric", month: "2-digit", day: "2-digit" });
const dateTimeFormat = new Intl.DateTimeFormat("en-ZA", { dateStyle: "medium", timeStyle: "short", timeZone: SHOP_TIME_ZONE });
const timeFormat = new Intl.DateTimeFormat("en-GB", { hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone: SHOP_TIME_ZONE });

/** The South African calendar day of `at` (2026-11-29). */
export function shopDayOf(at: Date): string {
  return dayOfFormat.format(at);
}

/** `day` moved by `days` whole days (calendar arithmetic, no time zone involved). */
export function addDays(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** The South African time of day of `at` in minutes since midnight (0–1439): where a booking sits on the calendar's grid. */
export function shopMinutesOf(at: Date): number {
  const [hours, minutes] = timeFormat.format(at).split(":").map(Number);
  return (hours ?? 0) * 60 + (minutes ?? 0);
}

/** "26 Nov 2026, 14:05": when something happened, in South African time (order lists, messages, mails). */
export function formatDateTime(at: Date | string): string {
  return dateTimeFormat.format(typeof at === "string" ? new Date(at) : at);
}

/** "14:00": the time of day of `at` in South African time (a booking's slot). */
export function formatTime(at: Date | string): string {
  return timeFormat.format(typeof at === "string" ? new Date(at) : at);
}

/** "Thu 10 Dec 2026, 10:00": a booking's start, with its weekday, in South African time. */
export function formatSlot(at: Date | string): string {
  const date = typeof at === "string" ? new Date(at) : at;
  const day = shopDayOf(date);
  return `${formatShortDay(day)} ${day.slice(0, 4)}, ${formatTime(date)}`;
}

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
  return addDays(shopDayOf(now), offset);
}

/** ISO weekday names, 1 Monday ... 7 Sunday (closed weekdays in the settings). */
export const WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"] as const;
