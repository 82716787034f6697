"use client";

import { useEffect, useState } from "react";
import { formatSlot } from "@/lib/days";
import { messages } from "@/lib/messages";

/** "12:05": minutes and seconds left until `until`, from `now`. */
function left(until: Date, now: number): string {
  const seconds = Math.max(0, Math.ceil((until.getTime() - now) / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

/** A cart line's booked time (South African) and how long its hold has left, counting down each second. */
export function BookingHold({ startsAt, holdExpiresAt }: { startsAt: Date; holdExpiresAt: Date }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const expired = holdExpiresAt.getTime() <= now;
  return (
    <div className="space-y-1 text-sm">
      <p className="font-medium" data-testid="booking-slot">
        {messages.bookings.slot(formatSlot(startsAt))}
      </p>
      {expired ? (
        <p className="text-danger">{messages.bookings.holdExpired}</p>
      ) : (
        <p className="tabular text-muted" data-testid="hold-countdown">
          {messages.bookings.heldFor(left(holdExpiresAt, now))}
        </p>
      )}
    </div>
  );
}
