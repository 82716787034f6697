import { createTRPCRouter, customerProcedure } from "@/server/api/trpc";
import { addToCart } from "@/server/cart/add-to-cart";
import { productRefInput } from "@/server/cart/cart-schemas";

export const cartRouter = createTRPCRouter({
  /** How many items the caller's cart holds (the navigation bar's badge). */
  count: customerProcedure.query(({ ctx }) =>
    ctx.db.transaction(async (trx) => {
      const row = await trx
        .selectFrom("cart_items")
        .select((eb) => eb.fn.coalesce(eb.fn.sum<number>("quantity"), eb.lit(0)).as("count"))
        .executeTakeFirst();
      return Number(row?.count ?? 0);
    }),
  ),

  add: customerProcedure.input(productRefInput).mutation(({ ctx, input }) => addToCart(ctx.db, input.productId)),
});
