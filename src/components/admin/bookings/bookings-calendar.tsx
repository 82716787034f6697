import { Link } from "@/components/ui/link";
import { calendarGrid } from "@/lib/calendar-grid";
import { addDays, formatShortDay, formatTime } from "@/lib/days";
import { messages } from "@/lib/messages";
import type { RouterOutputs } from "@/trpc/react";

const c = messages.bookings.calendar;

type Calendar = RouterOutputs["bookings"]["calendar"];

interface Props {
  calendar: Calendar;
  from: string;
  days: number;
  productId: string | null;
}

/** The page's address for a day or week and a service. */
function hrefOf(day: string, days: number, productId: string | null): string {
  const params = new URLSearchParams({ day, view: days === 7 ? "week" : "day" });
  if (productId) params.set("service", productId);
  return `/admin/bookings?${params.toString()}`;
}

/**
 * The admins' bookings calendar (docs/bookings.md): a day or a week (South African days) as a
 * grid of hours by days, one service or all. Each booking sits in the hour it starts, with its
 * time, customer, order and how much of the service's capacity runs at its start; the hours it
 * still runs are shaded. Moving or cancelling is on the order, in Order Management.
 */
export function BookingsCalendar({ calendar, from, days, productId }: Props) {
  const dayList = Array.from({ length: days }, (_, index) => addDays(from, index));
  const grid = calendarGrid(calendar.bookings, dayList);
  return (
    <section aria-labelledby="calendar-heading" className="space-y-4">
      <h2 id="calendar-heading" className="sr-only">
        {c.title}
      </h2>
      <nav aria-label="Days and services" className="flex flex-wrap items-center gap-2 text-sm">
        <Link className="rounded-lg border border-line px-3 py-1.5" href={hrefOf(addDays(from, -days), days, productId)}>
          ← Earlier
        </Link>
        <Link className="rounded-lg border border-line px-3 py-1.5" href={hrefOf(addDays(from, days), days, productId)}>
          Later →
        </Link>
        <Link aria-current={days === 1 ? "page" : undefined} className={`rounded-lg px-3 py-1.5 ${days === 1 ? "bg-brand-700 text-white" : "border border-line"}`} href={hrefOf(from, 1, productId)}>
          Day
        </Link>
        <Link aria-current={days === 7 ? "page" : undefined} className={`rounded-lg px-3 py-1.5 ${days === 7 ? "bg-brand-700 text-white" : "border border-line"}`} href={hrefOf(from, 7, productId)}>
          Week
        </Link>
        <Link className={`rounded-lg px-3 py-1.5 ${productId === null ? "bg-brand-50 font-semibold" : ""}`} href={hrefOf(from, days, null)}>
          {c.allServices}
        </Link>
        {calendar.services.map((service) => (
          <Link key={service.id} className={`rounded-lg px-3 py-1.5 ${productId === service.id ? "bg-brand-50 font-semibold" : ""}`} href={hrefOf(from, days, service.id)}>
            {service.name}
          </Link>
        ))}
      </nav>
      {calendar.bookings.length === 0 ? <p className="text-sm text-muted">{c.empty}</p> : null}
      {/* Focusable, so a keyboard can scroll the week sideways on a narrow screen. */}
      <div className="overflow-x-auto rounded-2xl border border-line bg-white" role="region" aria-label={c.gridLabel} tabIndex={0}>
        <table className={`w-full table-fixed border-collapse text-sm ${days === 7 ? "min-w-[60rem]" : ""}`} aria-label={c.gridLabel}>
          <thead>
            <tr>
              <th scope="col" className="w-16 border-b border-line p-2 text-left font-medium text-muted">
                {c.time}
              </th>
              {dayList.map((day) => (
                <th key={day} scope="col" className="border-b border-l border-line p-2 text-left font-bold">
                  {formatShortDay(day)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {grid.hours.map((hour) => (
              <tr key={hour}>
                <th scope="row" className="tabular border-t border-line p-2 text-left align-top font-medium text-muted">
                  {String(hour).padStart(2, "0")}:00
                </th>
                {dayList.map((day) => (
                  <td key={day} className={`h-12 border-l border-t border-line p-1 align-top ${grid.runningIn(day, hour) ? "bg-brand-50" : ""}`}>
                    {grid.startingIn(day, hour).map((booking) => (
                      <div key={booking.id} className="mb-1 rounded-lg border-l-4 border-brand-700 bg-brand-50 p-2" data-testid="calendar-booking">
                        <p className="tabular font-semibold">
                          {formatTime(booking.startsAt)}–{formatTime(booking.endsAt)}
                        </p>
                        <p>
                          {booking.service} · {booking.customerName}
                        </p>
                        {booking.address ? <p className="text-muted">{booking.address}</p> : null}
                        <p className="text-muted">
                          <Link className="font-medium text-brand-800 underline" href={`/admin/orders?q=${encodeURIComponent(booking.reference)}`}>
                            {booking.reference}
                          </Link>
                          {booking.capacity !== null ? ` · ${c.atOnce(booking.atOnce, booking.capacity)}` : null}
                        </p>
                      </div>
                    ))}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
