import { messages } from "@/lib/messages";
import { createTRPCRouter, customerProcedure } from "@/server/api/trpc";
import { addBooking } from "@/server/bookings/manage-bookings";
import { addBookingInput } from "@/server/bookings/schemas";
import { addToCart } from "./add-to-cart";
import { countCart, decreaseLine, increaseLine, listCart, removeLine } from "./manage-cart";
import { uploadPersonalisationFile } from "./personalisation-file";
import { addToCartInput, lineRefInput, personalisationFileInput } from "./schemas";

/** The caller's own cart (customers only; RLS: their own lines). */
export const cartRouter = createTRPCRouter({
  /** The lines with current prices and the SQL-computed total. */
  list: customerProcedure.meta({ failure: messages.cart.loadFailed }).query(listCart),
  /** How many items the cart holds (the navigation bar's badge). */
  count: customerProcedure.query(countCart),
  add: customerProcedure.meta({ failure: messages.cart.addFailed }).input(addToCartInput).mutation(addToCart),
  /** One slot of a bookable service, held for BOOKING_HOLD_MINUTES (docs/bookings.md). */
  addBooking: customerProcedure.meta({ failure: messages.cart.addFailed }).input(addBookingInput).mutation(addBooking),
  increase: customerProcedure.input(lineRefInput).mutation(increaseLine),
  decrease: customerProcedure.input(lineRefInput).mutation(decreaseLine),
  remove: customerProcedure.input(lineRefInput).mutation(removeLine),
  /** A file (a logo) for a line's personalisation, stored before the line is added. */
  uploadFile: customerProcedure.meta({ failure: messages.cart.uploadFailed }).input(personalisationFileInput).mutation(uploadPersonalisationFile),
});
