import { TRPCError } from "@trpc/server";
import { messages } from "@/lib/messages";
import { createTRPCRouter, customerProcedure } from "@/server/api/trpc";
import { addToCart } from "@/server/cart/add-to-cart";
import { decreaseLine, increaseLine, readCart, removeLine } from "@/server/cart/cart-queries";
import { productRefInput } from "@/server/cart/cart-schemas";

export const cartRouter = createTRPCRouter({
  /** The caller's cart with current prices and its SQL-computed total. */
  list: customerProcedure.query(async ({ ctx }) => {
    try {
      return await ctx.db.transaction((trx) => readCart(trx));
    } catch (error) {
      throw new TRPCError({ code: "INTERNAL_SERVER_ERROR", message: messages.cart.loadFailed, cause: error });
    }
  }),

  /** How many items the caller's cart holds (the navigation bar's badge). */
  count: customerProcedure.query(async ({ ctx }) => (await ctx.db.transaction((trx) => readCart(trx))).count),

  add: customerProcedure.input(productRefInput).mutation(({ ctx, input }) => addToCart(ctx.db, input.productId)),
  increase: customerProcedure.input(productRefInput).mutation(({ ctx, input }) => increaseLine(ctx.db, input.productId)),
  decrease: customerProcedure.input(productRefInput).mutation(({ ctx, input }) => decreaseLine(ctx.db, input.productId)),
  remove: customerProcedure.input(productRefInput).mutation(({ ctx, input }) => removeLine(ctx.db, input.productId)),
});
