import { byCaller, createTRPCRouter, customerProcedure, rateLimited } from "@/server/api/trpc";
import { placeOrder } from "./place-order";
import { placeOrderInput } from "./schemas";
import { startCheckout } from "./start-checkout";

export const checkoutRouter = createTRPCRouter({
  start: customerProcedure.query(startCheckout),
  placeOrder: customerProcedure
    .input(placeOrderInput)
    .use(rateLimited((limits) => limits.checkout, byCaller))
    .mutation(placeOrder),
});
