"use client";

import { useState } from "react";
import { messages } from "@/lib/messages";
import { BookSlotButton } from "@/components/signed-in";
import { SignInToAdd } from "@/components/cart/sign-in-to-add";

/** A free time as the product page lists it: when (ISO), its South African day and time of day, and the day's label. */
export interface SlotChoice {
  startsAt: string;
  day: string;
  dayLabel: string;
  time: string;
}

const m = messages.bookings;

/**
 * A bookable service's free times for the next days (South African time): the customer picks a
 * day, then a time, then adds it to the cart, which holds it (docs/bookings.md). Visitors see the
 * times and are asked to sign in; admins see the times only.
 */
export function SlotPicker({ productId, slots, viewer }: { productId: string; slots: SlotChoice[]; viewer: "visitor" | "customer" | "admin" }) {
  const days = [...new Map(slots.map((slot) => [slot.day, slot.dayLabel])).entries()];
  const [day, setDay] = useState(days[0]?.[0] ?? null);
  const [chosen, setChosen] = useState<string | null>(null);
  if (days.length === 0) return <p className="text-sm font-medium text-muted">{m.noTimes}</p>;
  const times = slots.filter((slot) => slot.day === day);

  return (
    <div className="space-y-4">
      <fieldset className="space-y-3">
        <legend className="text-sm font-semibold">{m.chooseTime}</legend>
        <div className="flex flex-wrap gap-2" role="group" aria-label="Day">
          {days.map(([value, label]) => (
            <button
              key={value}
              type="button"
              aria-pressed={value === day}
              onClick={() => {
                setDay(value);
                setChosen(null);
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
              onClick={() => setChosen(slot.startsAt)}
              className={`tabular rounded-xl border px-3 py-2 text-sm font-medium ${slot.startsAt === chosen ? "border-accent-700 bg-accent-700 text-white" : "border-line bg-white hover:bg-brand-50"}`}
            >
              {slot.time}
            </button>
          ))}
        </div>
        <p className="text-xs text-muted">{m.timesNote}</p>
      </fieldset>
      {viewer === "customer" ? (
        <BookSlotButton productId={productId} startsAt={chosen} className="w-full sm:w-auto" />
      ) : viewer === "visitor" ? (
        <SignInToAdd productId={productId} className="w-full sm:w-auto" />
      ) : null}
    </div>
  );
}
