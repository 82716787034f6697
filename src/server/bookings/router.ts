import { messages } from "@/lib/messages";
import { createTRPCRouter, publicProcedure } from "@/server/api/trpc";
import { freeSlots } from "./manage-bookings";
import { freeSlotsInput } from "./schemas";

/** Bookable services (docs/bookings.md): the free times anyone may see. Holding a slot is cart.addBooking. */
export const bookingsRouter = createTRPCRouter({
  freeSlots: publicProcedure.meta({ failure: messages.bookings.loadFailed }).input(freeSlotsInput).query(freeSlots),
});
