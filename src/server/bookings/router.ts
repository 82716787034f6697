import { messages } from "@/lib/messages";
import { createTRPCRouter, publicProcedure, signedInProcedure } from "@/server/api/trpc";
import { freeSlots, moveBooking } from "./manage-bookings";
import { freeSlotsInput, moveBookingInput } from "./schemas";

/** Bookable services (docs/bookings.md): the free times anyone may see, and moving a booking. Holding a slot is cart.addBooking. */
export const bookingsRouter = createTRPCRouter({
  freeSlots: publicProcedure.meta({ failure: messages.bookings.loadFailed }).input(freeSlotsInput).query(freeSlots),
  /** A customer's own booking until the notice limit, any booking for an admin, to another free time. */
  move: signedInProcedure.meta({ failure: messages.bookings.moveFailed }).input(moveBookingInput).mutation(moveBooking),
});
