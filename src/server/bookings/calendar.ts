import { createEvents, type EventAttributes } from "ics";
import { SHOP_TIME_ZONE } from "@/lib/days";
import { orderPath } from "@/lib/order-paths";

/** A booked time as a mail carries it. */
export interface BookedTime {
  name: string;
  startsAt: string;
  endsAt: string;
}

/** A file attached to a mail. */
export interface MailAttachment {
  filename: string;
  contentType: string;
  content: string;
}

/**
 * The bookings of an order as one calendar file (.ics, from the `ics` library), so that they land
 * in the customer's phone calendar. Times are written in UTC, which every calendar shows in its
 * owner's zone; the description names the shop's (South African) time too. The uid is the
 * order's reference and the slot, so a later file for the same booking updates it.
 */
export function bookingsCalendar(reference: string, bookings: BookedTime[], shop: { name: string; siteUrl: string }): MailAttachment {
  const host = new URL(shop.siteUrl).hostname;
  const events: EventAttributes[] = bookings.map((booking) => ({
    uid: `${reference}-${new Date(booking.startsAt).getTime()}@${host}`,
    title: `${booking.name} (${shop.name})`,
    description: `Order ${reference}. Times are ${SHOP_TIME_ZONE} (South African time).`,
    start: new Date(booking.startsAt).getTime(),
    startInputType: "utc",
    startOutputType: "utc",
    end: new Date(booking.endsAt).getTime(),
    endInputType: "utc",
    endOutputType: "utc",
    url: `${shop.siteUrl}${orderPath(reference)}`,
    status: "CONFIRMED",
    busyStatus: "BUSY",
    productId: shop.name,
  }));
  const { error, value } = createEvents(events);
  if (error || !value) throw error ?? new Error("The calendar file could not be made.");
  return { filename: `booking-${reference}.ics`, contentType: "text/calendar; charset=utf-8; method=PUBLISH", content: value };
}
