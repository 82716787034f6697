/**
 * The shop's opening hours (issue 34): per ISO weekday, open or closed and from-to, South African
 * time. The days checkout offers follow the same rows in SQL (opening_hours); this words them for
 * people, the one formatter every page and mail uses, so the hours shown and the days offered
 * cannot disagree.
 */
import { DEFAULT_CLOSES, DEFAULT_OPENS } from "./constants";
import { openingHoursMessages } from "./messages";

/** One weekday: 1 Monday ... 7 Sunday; times "HH:MM". */
export interface OpeningDay {
  weekday: number;
  open: boolean;
  opens: string;
  closes: string;
}

/** An open weekday as the mails carry it (closed days left out). */
export type OpenDay = Pick<OpeningDay, "weekday" | "opens" | "closes">;

const SHORT_WEEKDAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"] as const;

/** A new shop's week: Monday to Friday open, the weekend closed. */
export function defaultOpeningHours(): OpeningDay[] {
  return SHORT_WEEKDAYS.map((_, index) => ({ weekday: index + 1, open: index < 5, opens: DEFAULT_OPENS, closes: DEFAULT_CLOSES }));
}

/** "Mon–Wed, Fri": the weekdays (sorted), consecutive runs of three or more as a range. */
function weekdayList(weekdays: number[]): string {
  const runs: number[][] = [];
  for (const day of weekdays) {
    const run = runs.at(-1);
    if (run && run.at(-1) === day - 1) run.push(day);
    else runs.push([day]);
  }
  const name = (day: number) => SHORT_WEEKDAYS[day - 1] ?? String(day);
  return runs
    .flatMap((run) => (run.length >= 3 ? [`${name(run[0]!)}–${name(run.at(-1)!)}`] : run.map(name)))
    .join(", ");
}

/**
 * "Mon–Fri 09:00–16:00, Sat 09:00–13:00": the open days grouped by their hours, in weekday order.
 * Takes every day (closed ones are left out) or only the open ones, as the mails carry them.
 */
export function formatOpeningHours(days: readonly (OpenDay & { open?: boolean })[]): string {
  const open = days.filter((day) => day.open !== false).sort((a, b) => a.weekday - b.weekday);
  if (open.length === 0) return openingHoursMessages.closedAllWeek;
  const groups = new Map<string, number[]>();
  for (const day of open) {
    const hours = `${day.opens}–${day.closes}`;
    groups.set(hours, [...(groups.get(hours) ?? []), day.weekday]);
  }
  return [...groups].map(([hours, weekdays]) => `${weekdayList(weekdays)} ${hours}`).join(", ");
}
