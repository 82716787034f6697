import { formatSlot, formatTime } from "@/lib/days";
import { orderPath } from "@/lib/order-paths";
import type { MailData, ParsedMailShop } from "../schemas";
import { MailButton, MailHeading, MailLayout, P } from "./layout";

type Notice = MailData<"booking_changed">;

/** Subject of a moved or cancelled booking's mail. */
export function bookingChangedSubject(data: Notice, shop: ParsedMailShop): string {
  return data.cancelled
    ? `Booking cancelled: ${data.name} on ${formatSlot(data.startsAt)} — ${shop.name}`
    : `Booking moved: ${data.name} is now on ${formatSlot(data.startsAt)} — ${shop.name}`;
}

/** To the customer when a booking is moved or cancelled: the time as it is now, and the calendar file that updates their calendar. */
export function BookingChangedMail({ data, shop }: { data: Notice; shop: ParsedMailShop }) {
  const when = `${formatSlot(data.startsAt)} to ${formatTime(data.endsAt)} (South African time)`;
  return (
    <MailLayout shop={shop} preview={data.cancelled ? `${data.name} on ${formatSlot(data.startsAt)} is cancelled.` : `${data.name} is now on ${formatSlot(data.startsAt)}.`}>
      <MailHeading>{data.cancelled ? "Your booking is cancelled" : "Your booking has a new time"}</MailHeading>
      <P>Hello {data.customerName},</P>
      {data.cancelled ? (
        <P>
          Your booking of {data.name} on {when} (order <strong>{data.reference}</strong>) is cancelled, and the time is free again.
        </P>
      ) : (
        <P>
          Your booking of {data.name} (order <strong>{data.reference}</strong>) is now on <strong>{when}</strong>.
        </P>
      )}
      <P>The calendar file attached to this e-mail updates the booking in your calendar.</P>
      <MailButton href={`${shop.siteUrl}${orderPath(data.reference)}`}>View your order</MailButton>
    </MailLayout>
  );
}

/** Subject of the reminder 24 hours before a booking. */
export function bookingReminderSubject(data: Notice, shop: ParsedMailShop): string {
  return `Reminder: ${data.name} on ${formatSlot(data.startsAt)} — ${shop.name}`;
}

/** To the customer 24 hours before a booking. */
export function BookingReminderMail({ data, shop }: { data: Notice; shop: ParsedMailShop }) {
  return (
    <MailLayout shop={shop} preview={`A reminder: ${data.name} on ${formatSlot(data.startsAt)}.`}>
      <MailHeading>See you soon</MailHeading>
      <P>Hello {data.customerName},</P>
      <P>
        A reminder of your booking of {data.name} on <strong>{formatSlot(data.startsAt)}</strong> to {formatTime(data.endsAt)} (South African time), order{" "}
        <strong>{data.reference}</strong>.
      </P>
      <MailButton href={`${shop.siteUrl}${orderPath(data.reference)}`}>View your order</MailButton>
    </MailLayout>
  );
}
