import { sql } from "kysely";
import { placeOrderInput } from "@/lib/checkout-schema";
import { site } from "@/lib/site";
import { byCaller, createTRPCRouter, customerProcedure, rateLimited } from "@/server/api/trpc";
import { placeOrderWithProof } from "@/server/checkout/place-order";

export const checkoutRouter = createTRPCRouter({
  /** What the checkout page shows: the bank details and a fresh reference to pay with. */
  start: customerProcedure.query(async ({ ctx }) => {
    const reference = await ctx.db.transaction(async (trx) => {
      const { rows } = await sql<{ reference: string }>`select public.new_order_reference() as reference`.execute(trx);
      return rows[0]!.reference;
    });
    return { reference, bank: site.bank };
  }),

  placeOrder: customerProcedure
    .input(placeOrderInput)
    .use(rateLimited((limits) => limits.checkout, byCaller))
    .mutation(({ ctx, input }) => placeOrderWithProof({ db: ctx.db, storage: ctx.storage, userId: ctx.user.id }, input)),
});
