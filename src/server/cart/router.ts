import { createTRPCRouter, customerProcedure } from "@/server/api/trpc";
import { addToCart } from "./add-to-cart";
import { cartCount, decreaseLine, increaseLine, loadCart, removeLine } from "./cart-queries";
import { productRefInput } from "./schemas";

/** The caller's own cart (customers only; RLS: their own lines). */
export const cartRouter = createTRPCRouter({
  /** The lines with current prices and the SQL-computed total. */
  list: customerProcedure.query(({ ctx }) => loadCart(ctx.db, ctx.storage.publicUrl)),
  /** How many items the cart holds (the navigation bar's badge). */
  count: customerProcedure.query(({ ctx }) => ctx.db.transaction((trx) => cartCount(trx))),
  add: customerProcedure.input(productRefInput).mutation(({ ctx, input }) => addToCart(ctx.db, input.productId)),
  increase: customerProcedure.input(productRefInput).mutation(({ ctx, input }) => increaseLine(ctx.db, input.productId)),
  decrease: customerProcedure.input(productRefInput).mutation(({ ctx, input }) => decreaseLine(ctx.db, input.productId)),
  remove: customerProcedure.input(productRefInput).mutation(({ ctx, input }) => removeLine(ctx.db, input.productId)),
});
