import { messages } from "@/lib/messages";
import { createTRPCRouter, customerProcedure } from "@/server/api/trpc";
import { addToCart } from "./add-to-cart";
import { countCart, decreaseLine, increaseLine, listCart, removeLine } from "./manage-cart";
import { addToCartInput, lineRefInput } from "./schemas";

/** The caller's own cart (customers only; RLS: their own lines). */
export const cartRouter = createTRPCRouter({
  /** The lines with current prices and the SQL-computed total. */
  list: customerProcedure.meta({ failure: messages.cart.loadFailed }).query(listCart),
  /** How many items the cart holds (the navigation bar's badge). */
  count: customerProcedure.query(countCart),
  add: customerProcedure.meta({ failure: messages.cart.addFailed }).input(addToCartInput).mutation(addToCart),
  increase: customerProcedure.input(lineRefInput).mutation(increaseLine),
  decrease: customerProcedure.input(lineRefInput).mutation(decreaseLine),
  remove: customerProcedure.input(lineRefInput).mutation(removeLine),
});
