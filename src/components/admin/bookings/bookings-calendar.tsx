import Link from "next/link";
import { addDays, formatShortDay, formatTime, shopDayOf } from "@/lib/days";
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
 * The admins' bookings calendar (docs/bookings.md): a day or a week (South African days), one
 * service or all, each booking with its time, customer, order and how much of the service's
 * capacity runs at its start. Moving or cancelling is on the order, in Order Management.
 */
export function BookingsCalendar({ calendar, from, days, productId }: Props) {
  const dayList = Array.from({ length: days }, (_, index) => addDays(from, index));
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
      {dayList.map((day) => {
        const booked = calendar.bookings.filter((booking) => shopDayOf(booking.startsAt) === day);
        return (
          <div key={day} className="rounded-2xl border border-line bg-white p-4" data-testid="calendar-day">
            <h3 className="font-bold">{formatShortDay(day)}</h3>
            {booked.length === 0 ? (
              <p className="mt-2 text-sm text-muted">{c.empty}</p>
            ) : (
              <ul className="mt-2 divide-y divide-line text-sm">
                {booked.map((booking) => (
                  <li key={booking.id} className="flex flex-wrap justify-between gap-2 py-2" data-testid="calendar-booking">
                    <span>
                      <span className="tabular font-semibold">
                        {formatTime(booking.startsAt)}–{formatTime(booking.endsAt)}
                      </span>{" "}
                      {booking.service} · {booking.customerName}
                      {booking.address ? <span className="block text-muted">{booking.address}</span> : null}
                    </span>
                    <span className="text-muted">
                      <Link className="font-medium text-brand-800 underline" href={`/admin/orders?q=${encodeURIComponent(booking.reference)}`}>
                        {booking.reference}
                      </Link>
                      {booking.capacity !== null ? ` · ${c.atOnce(booking.atOnce, booking.capacity)}` : null}
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </div>
        );
      })}
    </section>
  );
}
