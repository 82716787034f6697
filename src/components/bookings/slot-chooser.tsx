"use client";

import { useState } from "react";
import { bookingMessages } from "@/lib/booking-messages";
import type { SlotChoice } from "./slot-choices";

const m = bookingMessages;

/**
 * A day, then a time of that day, from a service's free times (South African time): the product
 * page's picker and accepting a quote with a booked line alike. The chosen time is the caller's.
 */
export function SlotChooser({
  slots,
  chosen,
  onChoose,
  legend = m.chooseTime,
  disabled = false,
}: {
  slots: SlotChoice[];
  chosen: string | null;
  onChoose: (startsAt: string | null) => void;
  legend?: string;
  disabled?: boolean;
}) {
  const days = [...new Map(slots.map((slot) => [slot.day, slot.dayLabel])).entries()];
  const [day, setDay] = useState(days[0]?.[0] ?? null);
  if (days.length === 0) return <p className="text-sm font-medium text-muted">{m.noTimes}</p>;
  const times = slots.filter((slot) => slot.day === day);

  return (
    <fieldset className="space-y-3" disabled={disabled}>
      <legend className="text-sm font-semibold">{legend}</legend>
      <div className="flex flex-wrap gap-2" role="group" aria-label="Day">
        {days.map(([value, label]) => (
          <button
            key={value}
            type="button"
            aria-pressed={value === day}
            onClick={() => {
              setDay(value);
              onChoose(null);
            }}
            className={`rounded-xl border px-3 py-2 text-sm font-medium ${value === day ? "border-brand-700 bg-brand-700 text-white" : "border-line bg-white hover:bg-brand-50"}`}
          >
            {label}
          </button>
        ))}
      </div>
      <div className="flex flex-wrap gap-2" role="group" aria-label="Time">
        {times.map((slot) => (
          <button
            key={slot.startsAt}
            type="button"
            aria-pressed={slot.startsAt === chosen}
            onClick={() => onChoose(slot.startsAt)}
            className={`tabular rounded-xl border px-3 py-2 text-sm font-medium ${slot.startsAt === chosen ? "border-accent-700 bg-accent-700 text-white" : "border-line bg-white hover:bg-brand-50"}`}
          >
            {slot.time}
          </button>
        ))}
      </div>
      <p className="text-xs text-muted">{m.timesNote}</p>
    </fieldset>
  );
}
