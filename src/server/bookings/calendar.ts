import { createEvents, type EventAttributes } from "ics";
import { SHOP_TIME_ZONE } from "@/lib/days";
import { orderPath } from "@/lib/order-paths";

/** A booked time as a mail carries it. */
export interface BookedTime {
  name: string;
  startsAt: string;
  endsAt: string;
  /** Its booking (mails since moves and cancellations are mailed): the event's uid, whatever its time. */
  bookingId?: string;
}

/** A file attached to a mail. */
export interface MailAttachment {
  filename: string;
  contentType: string;
  content: string;
}

interface Shop {
  name: string;
  siteUrl: string;
}

/**
 * The event's uid: the order's reference and the booking's id, so that a later file for the same
 * booking (moved, or cancelled) updates the event in the customer's calendar instead of adding one.
 * A mail from before bookings were named by id used the slot's start.
 */
function uidOf(reference: string, booking: BookedTime, host: string): string {
  return booking.bookingId ? `${reference}-${booking.bookingId}@${host}` : `${reference}-${new Date(booking.startsAt).getTime()}@${host}`;
}

function eventOf(reference: string, booking: BookedTime, shop: Shop): EventAttributes {
  return {
    uid: uidOf(reference, booking, new URL(shop.siteUrl).hostname),
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
  };
}

function file(reference: string, events: EventAttributes[], method: "PUBLISH" | "CANCEL"): MailAttachment {
  const { error, value } = createEvents(events, { method });
  if (error || !value) throw error ?? new Error("The calendar file could not be made.");
  return { filename: `booking-${reference}.ics`, contentType: `text/calendar; charset=utf-8; method=${method}`, content: value };
}

/**
 * The bookings of an order as one calendar file (.ics, from the `ics` library), so that they land
 * in the customer's phone calendar. Times are written in UTC, which every calendar shows in its
 * owner's zone; the description names the shop's (South African) time too.
 */
export function bookingsCalendar(reference: string, bookings: BookedTime[], shop: Shop): MailAttachment {
  return file(
    reference,
    bookings.map((booking) => eventOf(reference, booking, shop)),
    "PUBLISH",
  );
}

/**
 * One booking moved (its new time, a later sequence) or cancelled (a cancelled event): the same
 * uid as the order mail's file, so the customer's calendar updates or removes that event.
 */
export function bookingChangeCalendar(
  change: { reference: string; bookingId: string; name: string; startsAt: string; endsAt: string; cancelled: boolean; sequence: number },
  shop: Shop,
): MailAttachment {
  const event: EventAttributes = { ...eventOf(change.reference, change, shop), sequence: change.sequence };
  if (change.cancelled) event.status = "CANCELLED";
  return file(change.reference, [event], change.cancelled ? "CANCEL" : "PUBLISH");
}
