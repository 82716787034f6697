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
