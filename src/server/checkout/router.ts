import { messages } from "@/lib/messages";
import { createTRPCRouter, customerProcedure } from "@/server/api/trpc";
import { placeOrder } from "./place-order";
import { placeOrderInput } from "./schemas";
import { startCheckout } from "./start-checkout";

export const checkoutRouter = createTRPCRouter({
  start: customerProcedure.query(startCheckout),
  // Limited per customer (CHECKOUT_LIMIT) in the payment's first statement, not by a middleware: see place-order.ts.
  placeOrder: customerProcedure.meta({ failure: messages.checkout.failed }).input(placeOrderInput).mutation(placeOrder),
});
