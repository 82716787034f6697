import { formatShortDay, formatTime, shopDayOf } from "@/lib/days";

/** A free time as the pickers list it: when (ISO), its South African day and time of day, and the day's label. */
export interface SlotChoice {
  startsAt: string;
  day: string;
  dayLabel: string;
  time: string;
}

/** A service's free times (bookings.freeSlots) as the pickers list them, in South African time. */
export function toSlotChoices(slots: { startsAt: Date }[]): SlotChoice[] {
  return slots.map((slot) => {
    const day = shopDayOf(slot.startsAt);
    return { startsAt: slot.startsAt.toISOString(), day, dayLabel: formatShortDay(day), time: formatTime(slot.startsAt) };
  });
}
