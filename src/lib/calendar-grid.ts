import { CALENDAR_HOURS } from "@/lib/constants";
import { shopDayOf, shopMinutesOf } from "@/lib/days";

/** What the grid places: a booking's start and end. */
export interface Timed {
  startsAt: Date;
  endsAt: Date;
}

/** The admins' bookings calendar as a grid: hour rows (South African) by day columns. */
export interface CalendarGrid<T extends Timed> {
  /** The rows: each hour from the first to the last the grid shows (17 is 17:00–18:00). */
  hours: number[];
  /** The bookings starting in that hour of that day, by start. */
  startingIn: (day: string, hour: number) => T[];
  /** Whether a booking that started earlier that day still runs in that hour (the cell is shaded). */
  runningIn: (day: string, hour: number) => boolean;
}

/**
 * The calendar grid of `days` (YYYY-MM-DD, South African) for `bookings`: the working hours of
 * CALENDAR_HOURS, widened to every booking shown; a booking ending after midnight runs to the
 * day's last hour. Bookings of other days are left out.
 */
export function calendarGrid<T extends Timed>(bookings: T[], days: string[]): CalendarGrid<T> {
  const shown = new Set(days);
  const placed = bookings
    .filter((booking) => shown.has(shopDayOf(booking.startsAt)))
    .map((booking) => {
      const day = shopDayOf(booking.startsAt);
      const start = shopMinutesOf(booking.startsAt);
      const end = shopDayOf(booking.endsAt) === day ? shopMinutesOf(booking.endsAt) : 24 * 60;
      return { booking, day, first: Math.floor(start / 60), last: Math.max(Math.floor(start / 60), Math.ceil(end / 60) - 1) };
    })
    .sort((a, b) => a.booking.startsAt.getTime() - b.booking.startsAt.getTime());
  const from = Math.min(CALENDAR_HOURS.from, ...placed.map((entry) => entry.first));
  const to = Math.max(CALENDAR_HOURS.to, ...placed.map((entry) => entry.last));
  return {
    hours: Array.from({ length: to - from + 1 }, (_, index) => from + index),
    startingIn: (day, hour) => placed.filter((entry) => entry.day === day && entry.first === hour).map((entry) => entry.booking),
    runningIn: (day, hour) => placed.some((entry) => entry.day === day && entry.first < hour && hour <= entry.last),
  };
}
