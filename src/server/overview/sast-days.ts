const SAST = "Africa/Johannesburg";
const dayFormat = new Intl.DateTimeFormat("en-CA", { timeZone: SAST, year: "numeric", month: "2-digit", day: "2-digit" });

/** The South African calendar day of `at` (2026-11-29), whatever the server's or browser's zone. */
export function sastDay(at: Date): string {
  return dayFormat.format(at);
}

/** `day` moved by `days` whole days (calendar arithmetic, no time zone involved). */
export function addDays(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** The overview's range when none is chosen: the last 30 South African days, today included. */
export function defaultRange(now: Date): { from: string; to: string } {
  const to = sastDay(now);
  return { from: addDays(to, -29), to };
}
