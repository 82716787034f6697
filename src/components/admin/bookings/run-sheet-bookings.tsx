import { formatTime } from "@/lib/days";
import { messages } from "@/lib/messages";
import type { RouterOutputs } from "@/trpc/react";

type Booking = RouterOutputs["bookings"]["calendar"]["bookings"][number];

const LOCATION: Record<Booking["location"], string> = { customer_address: "At the customer's", shop: "At the shop", online: "Online" };

/** The run sheet's bookings of the day (docs/bookings.md), beside its deliveries: time, service, where, customer, phone, notes. */
export function RunSheetBookings({ bookings }: { bookings: Booking[] }) {
  if (bookings.length === 0) return null;
  return (
    <section className="mt-8 break-inside-avoid">
      <h2 className="text-xl font-bold">
        {messages.bookings.calendar.runSheetHeading} ({bookings.length})
      </h2>
      <table className="mt-3 w-full border-collapse text-sm" data-testid="run-sheet-bookings">
        <thead>
          <tr className="border-b-2 border-ink text-left">
            <th className="py-2 pr-3">Time</th>
            <th className="py-2 pr-3">Service</th>
            <th className="py-2 pr-3">Where</th>
            <th className="py-2 pr-3">Customer</th>
            <th className="py-2 pr-3">Notes</th>
            <th className="py-2 pl-3 print:w-12">Done</th>
          </tr>
        </thead>
        <tbody>
          {bookings.map((booking) => (
            <tr key={booking.id} className="border-b border-line align-top">
              <td className="tabular py-2 pr-3 font-semibold">
                {formatTime(booking.startsAt)}–{formatTime(booking.endsAt)}
              </td>
              <td className="py-2 pr-3">
                {booking.service}
                <span className="block text-xs text-muted">{booking.reference}</span>
              </td>
              <td className="py-2 pr-3">{booking.address ?? LOCATION[booking.location]}</td>
              <td className="py-2 pr-3">
                {booking.customerName}
                {booking.phone ? <span className="tabular block text-xs">{booking.phone}</span> : null}
                <span className="block break-all text-xs text-muted">{booking.customerEmail}</span>
              </td>
              <td className="py-2 pr-3">{booking.notes.join("; ")}</td>
              <td className="py-2 pl-3">
                <span aria-hidden className="inline-block size-5 rounded border border-ink" />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
