import { MAX_OVERVIEW_DAYS } from "@/lib/constants";
import { addDays, shopDayOf } from "@/lib/days";
import { overviewMessages as m } from "@/lib/messages";
import { z } from "@/lib/zod";

const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** A calendar day as <input type="date"> sends it (2026-11-29), and only a real one. */
const day = z
  .string()
  .regex(DAY, m.rangeInvalid)
  .refine((value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value), m.rangeInvalid);

/** Whole days from `from` to `to`. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** The overview's chosen range (South African days, both included), shared by the page's form, the procedure and the CSV. */
export const overviewRangeInput = z
  .object({ from: day, to: day })
  .refine((range) => daysBetween(range.from, range.to) >= 0 && daysBetween(range.from, range.to) <= MAX_OVERVIEW_DAYS, { message: m.rangeInvalid, path: ["to"] });

export type OverviewRange = z.output<typeof overviewRangeInput>;

/** The overview's range when none is chosen: the last 30 South African days, today included. */
export function defaultRange(now: Date): { from: string; to: string } {
  const to = shopDayOf(now);
  return { from: addDays(to, -29), to };
}
