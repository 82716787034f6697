import { createTRPCRouter, signedInProcedure } from "@/server/api/trpc";
import { listOrders } from "@/server/orders/order-queries";

export const ordersRouter = createTRPCRouter({
  /** The caller's own orders, newest first: purchase history and live order status. */
  mine: signedInProcedure.query(({ ctx }) => ctx.db.transaction((trx) => listOrders(trx, ctx.storage, { userId: ctx.user.id }))),
});
