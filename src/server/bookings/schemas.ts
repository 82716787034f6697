import { BOOKING_DAYS_SHOWN } from "@/lib/constants";
import { messages } from "@/lib/messages";
import { z } from "@/lib/zod";

/** bookings.freeSlots: a service's free times for `days` days from `from` (YYYY-MM-DD, South African; today if left out). */
export const freeSlotsInput = z.object({
  productId: z.uuid("Unknown product."),
  from: z.iso.date().optional(),
  days: z.number().int().min(1).max(31).default(BOOKING_DAYS_SHOWN),
});
export type FreeSlotsInput = z.infer<typeof freeSlotsInput>;

/** cart.addBooking: one slot of a bookable service (its variant when it has options), held in the cart. */
export const addBookingInput = z.object({
  productId: z.uuid("Unknown product."),
  variantId: z.uuid("Unknown product.").optional(),
  startsAt: z.iso.datetime({ offset: true, message: messages.bookings.pickFirst }),
});
export type AddBookingInput = z.infer<typeof addBookingInput>;

const a = messages.bookings.admin;
const whole = (label: string, min: number, max: number) => z.number({ message: a.wholeNumber(label, min, max) }).int(a.wholeNumber(label, min, max)).min(min, a.wholeNumber(label, min, max)).max(max, a.wholeNumber(label, min, max));
const timeOfDay = z.string().regex(/^([01][0-9]|2[0-3]):[0-5][0-9]$/, a.hoursOrder);

export const BOOKING_LOCATIONS = ["customer_address", "shop", "online"] as const;
export const BOOKING_DEPOSITS = ["none", "percent", "full"] as const;

/** A service's hours on one weekday: the shop's, closed, or its own from-to (South African time). */
export const serviceHoursInput = z.object({
  weekday: z.number().int().min(1).max(7),
  mode: z.enum(["shop", "closed", "open"]),
  opens: timeOfDay,
  closes: timeOfDay,
});

/** A bookable service's settings, as the admin's Booking panel sends them and bookable_services keeps them. */
export const bookingSettingsInput = z
  .object({
    durationMinutes: whole("The duration", 15, 1440),
    bufferMinutes: whole("The buffer", 0, 480),
    capacity: whole("How many at once", 1, 100),
    noticeHours: whole("The notice", 0, 720),
    horizonDays: whole("How far ahead", 1, 365),
    location: z.enum(BOOKING_LOCATIONS),
    deposit: z.enum(BOOKING_DEPOSITS),
    depositPercent: z.number().int(a.depositPercent).min(1, a.depositPercent).max(99, a.depositPercent).nullable(),
    refundUntilHours: whole("The refund limit", 0, 720),
    hours: z.array(serviceHoursInput).max(7),
  })
  .refine((settings) => (settings.deposit === "percent") === (settings.depositPercent !== null), { message: a.depositPercent, path: ["depositPercent"] })
  .refine((settings) => settings.hours.every((day) => day.mode !== "open" || day.opens < day.closes), { message: a.hoursOrder, path: ["hours"] });
export type BookingSettings = z.infer<typeof bookingSettingsInput>;

/** adminProducts.saveBooking: a product's booking settings, or null to stop booking it by time. */
export const saveBookingInput = z.object({ productId: z.uuid("Unknown product."), settings: bookingSettingsInput.nullable() });
export type SaveBookingInput = z.infer<typeof saveBookingInput>;

/** bookings.move: one of the caller's bookings (any, for an admin) to another free time. */
export const moveBookingInput = z.object({
  bookingId: z.uuid(messages.bookings.bookingNotFound),
  startsAt: z.iso.datetime({ offset: true, message: messages.bookings.pickFirst }),
});
export type MoveBookingInput = z.infer<typeof moveBookingInput>;

/** bookings.cancel: one of the caller's bookings (any, for an admin). */
export const cancelBookingInput = z.object({ bookingId: z.uuid(messages.bookings.bookingNotFound) });
export type CancelBookingInput = z.infer<typeof cancelBookingInput>;

const c = messages.bookings.calendar;
/** A South African date and time to the minute, as a datetime-local field sends it (YYYY-MM-DDTHH:MM). */
const localTime = z.iso.datetime({ local: true, precision: -1, message: c.blockOrder });

/** bookings.calendar: the bookings of `days` South African days from `from` (a day or a week), one service or all. */
export const calendarInput = z.object({
  from: z.iso.date("Please choose a day."),
  days: z.number().int().min(1).max(14).default(1),
  productId: z.uuid("Unknown product.").nullish(),
});
export type CalendarInput = z.output<typeof calendarInput>;

/** bookings.addBlock: a blocked time, South African local from-to (YYYY-MM-DDTHH:MM), for one service or all (null). */
export const addBlockInput = z
  .object({
    productId: z.uuid("Unknown product.").nullable(),
    from: localTime,
    to: localTime,
    reason: z.string().trim().max(200),
  })
  .refine((block) => block.from < block.to, { message: c.blockOrder, path: ["to"] });
export type AddBlockInput = z.output<typeof addBlockInput>;

/** bookings.removeBlock. */
export const removeBlockInput = z.object({ id: z.uuid(c.blockNotFound) });
export type RemoveBlockInput = z.output<typeof removeBlockInput>;
