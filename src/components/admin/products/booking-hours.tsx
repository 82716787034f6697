"use client";

import { WEEKDAYS } from "@/lib/days";
import { DEFAULT_CLOSES, DEFAULT_OPENS } from "@/lib/constants";
import { messages } from "@/lib/messages";
import type { BookingSettings } from "@/server/bookings/schemas";

export type HoursRow = BookingSettings["hours"][number];

const a = messages.bookings.admin;

/** Seven rows, Monday to Sunday: the saved ones as they are, the others following the shop's hours. */
export function defaultHours(saved: HoursRow[]): HoursRow[] {
  return WEEKDAYS.map((_, index) => saved.find((row) => row.weekday === index + 1) ?? { weekday: index + 1, mode: "shop", opens: DEFAULT_OPENS, closes: DEFAULT_CLOSES });
}

/** When the service can be booked on each weekday: the shop's opening hours, closed, or its own hours (South African time). */
export function BookingHours({ rows, onChange }: { rows: HoursRow[]; onChange: (rows: HoursRow[]) => void }) {
  const change = (weekday: number, patch: Partial<HoursRow>) => onChange(rows.map((row) => (row.weekday === weekday ? { ...row, ...patch } : row)));
  return (
    <fieldset className="space-y-2">
      <legend className="text-sm font-semibold">Hours it can be booked</legend>
      {rows.map((row) => {
        const day = WEEKDAYS[row.weekday - 1];
        return (
          <div key={row.weekday} className="flex flex-wrap items-center gap-2 text-sm">
            <span className="w-24 font-medium">{day}</span>
            <select aria-label={`${day} hours`} className="rounded-xl border border-line bg-white px-3 py-1.5" value={row.mode} onChange={(event) => change(row.weekday, { mode: event.target.value as HoursRow["mode"] })}>
              <option value="shop">{a.hoursShop}</option>
              <option value="closed">{a.hoursClosed}</option>
              <option value="open">{a.hoursOpen}</option>
            </select>
            {row.mode === "open" ? (
              <>
                <input type="time" aria-label={`${day} from`} className="rounded-xl border border-line bg-white px-2 py-1" value={row.opens} onChange={(event) => change(row.weekday, { opens: event.target.value })} />
                <span>to</span>
                <input type="time" aria-label={`${day} to`} className="rounded-xl border border-line bg-white px-2 py-1" value={row.closes} onChange={(event) => change(row.weekday, { closes: event.target.value })} />
              </>
            ) : null}
          </div>
        );
      })}
    </fieldset>
  );
}
