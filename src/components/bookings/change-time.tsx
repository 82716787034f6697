"use client";

import { useState } from "react";
import { BOOKING_DAYS_SHOWN } from "@/lib/constants";
import { formatShortDay, formatTime, shopDayOf } from "@/lib/days";
import { messages } from "@/lib/messages";
import { api } from "@/trpc/react";
import { Button } from "@/components/ui/button";
import { StatusMessage } from "@/components/ui/status-message";
import { useFlashMessage } from "@/components/ui/use-flash-message";

const m = messages.bookings;

/**
 * "Change time" on a booked line: the service's free times (SAST), and a move to the chosen one
 * (bookings.move); and "Cancel booking", asked twice (bookings.cancel). The customer's order page
 * and Order Management alike: SQL decides whose booking and until when.
 */
export function ChangeBookingTime({ bookingId, productId }: { bookingId: string; productId: string }) {
  const [open, setOpen] = useState(false);
  const [chosen, setChosen] = useState("");
  const [confirming, setConfirming] = useState(false);
  const flash = useFlashMessage();
  const utils = api.useUtils();
  const slots = api.bookings.freeSlots.useQuery({ productId, days: BOOKING_DAYS_SHOWN }, { enabled: open });
  const changed = ({ message }: { message: string }) => {
    flash.show(message, "success");
    setOpen(false);
    setConfirming(false);
    void utils.orders.invalidate();
    void utils.adminOrders.invalidate();
    // Cancelling one booked line of an order that goes on may issue a credit note.
    void utils.invoices.forOrder.invalidate();
  };
  const move = api.bookings.move.useMutation({ onSuccess: changed, onError: (error) => flash.show(error.message || m.moveFailed, "error") });
  const cancel = api.bookings.cancel.useMutation({ onSuccess: changed, onError: (error) => flash.show(error.message || m.cancelFailed, "error") });
  const days = [...new Set((slots.data ?? []).map((slot) => shopDayOf(slot.startsAt)))];

  return (
    <div className="mt-1 space-y-2">
      <div className="flex flex-wrap gap-4">
        <button type="button" className="text-sm font-semibold text-brand-700 underline" aria-expanded={open} onClick={() => setOpen(!open)}>
          Change time
        </button>
        <button type="button" className="text-sm font-semibold text-danger underline" aria-expanded={confirming} onClick={() => setConfirming(!confirming)}>
          {m.cancelBooking}
        </button>
      </div>
      {confirming ? (
        <div className="flex flex-wrap items-center gap-2 text-sm">
          <span>{m.cancelConfirm}</span>
          <Button variant="outline" disabled={cancel.isPending} onClick={() => cancel.mutate({ bookingId })}>
            {m.cancelYes}
          </Button>
        </div>
      ) : null}
      {open ? (
        slots.isPending ? (
          <p role="status">{messages.loading}</p>
        ) : days.length === 0 ? (
          <p className="text-sm text-muted">{m.noTimes}</p>
        ) : (
          <div className="flex flex-wrap items-center gap-2">
            <select aria-label="New time" className="rounded-xl border border-line bg-white px-3 py-2 text-sm" value={chosen} onChange={(event) => setChosen(event.target.value)}>
              <option value="">{m.chooseTime}</option>
              {days.map((day) => (
                <optgroup key={day} label={formatShortDay(day)}>
                  {(slots.data ?? [])
                    .filter((slot) => shopDayOf(slot.startsAt) === day)
                    .map((slot) => (
                      <option key={slot.startsAt.toISOString()} value={slot.startsAt.toISOString()}>
                        {`${formatShortDay(day)}, ${formatTime(slot.startsAt)}`}
                      </option>
                    ))}
                </optgroup>
              ))}
            </select>
            <Button variant="outline" disabled={!chosen || move.isPending} onClick={() => move.mutate({ bookingId, startsAt: chosen })}>
              Move booking
            </Button>
          </div>
        )
      ) : null}
      <StatusMessage message={flash.message} />
      <p className="text-xs text-muted">{m.timesNote}</p>
    </div>
  );
}
