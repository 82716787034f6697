import { messages } from "@/lib/messages";
import { adminProcedure, createTRPCRouter, publicProcedure, signedInProcedure } from "@/server/api/trpc";
import { cancelBooking, freeSlots, moveBooking } from "./manage-bookings";
import { addBlock, blocks, calendar, removeBlock } from "./owner-day";
import { addBlockInput, calendarInput, cancelBookingInput, freeSlotsInput, moveBookingInput, removeBlockInput } from "./schemas";

/** Bookable services (docs/bookings.md): the free times anyone may see, and moving or cancelling a booking. Holding a slot is cart.addBooking. */
export const bookingsRouter = createTRPCRouter({
  freeSlots: publicProcedure.meta({ failure: messages.bookings.loadFailed }).input(freeSlotsInput).query(freeSlots),
  /** A customer's own booking until the notice limit, any booking for an admin, to another free time. */
  move: signedInProcedure.meta({ failure: messages.bookings.moveFailed }).input(moveBookingInput).mutation(moveBooking),
  /** The same, cancelled: the customer's own until the notice limit, any for an admin; the time is free at once. */
  cancel: signedInProcedure.meta({ failure: messages.bookings.cancelFailed }).input(cancelBookingInput).mutation(cancelBooking),
  /** The owner's day (admins): the bookings of a day or a week with capacity used (also the run sheet's), and blocked times. */
  calendar: adminProcedure.meta({ failure: messages.bookings.calendar.loadFailed }).input(calendarInput).query(calendar),
  blocks: adminProcedure.meta({ failure: messages.bookings.calendar.loadFailed }).query(blocks),
  addBlock: adminProcedure.meta({ failure: messages.bookings.calendar.blockFailed }).input(addBlockInput).mutation(addBlock),
  removeBlock: adminProcedure.meta({ failure: messages.bookings.calendar.blockFailed }).input(removeBlockInput).mutation(removeBlock),
});
