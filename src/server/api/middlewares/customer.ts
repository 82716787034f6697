import { TRPCError } from "@trpc/server";
import { messages } from "@/lib/messages";
import { t } from "../init";

/**
 * Customers (signed-in non-admins) only: admins get FORBIDDEN (docs/architecture.md#decisions-on-the-spec). Goes after
 * `signedIn`. Every write behind it may change the cart, so the header's kept cart count goes
 * with it, whether the write succeeded or not.
 */
export const customersOnly = t.middleware(async ({ ctx, next, type }) => {
  if (ctx.user?.role === "admin") throw new TRPCError({ code: "FORBIDDEN", message: messages.cart.customersOnly });
  try {
    return await next();
  } finally {
    if (type === "mutation") ctx.forgetCaller("cart");
  }
});
