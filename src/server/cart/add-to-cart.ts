import { TRPCError } from "@trpc/server";
import { messages } from "@/lib/messages";
import type { TRPCContext } from "@/server/api/trpc";
import { addOne } from "./cart-queries";
import { cartRefusal } from "./refusals";
import type { AddToCartInput } from "./schemas";

/**
 * Adds one of a product (or of its chosen variant) to the caller's cart through add_to_cart() or
 * add_variant_to_cart() (+1 on an existing line, a new line at 1, available variants only, no
 * more than a counted variant has) and says which, in the spec's words.
 */
export async function addToCart({ ctx, input }: { ctx: Pick<TRPCContext, "db">; input: AddToCartInput }): Promise<{ message: string; quantity: number }> {
  try {
    return await ctx.db.transaction(async (trx) => {
      const line = await addOne(trx, input.productId, input.variantId, input.personalisation);
      // Another product's variant: nothing is kept (the transaction is rolled back).
      if (!line) throw new TRPCError({ code: "NOT_FOUND", message: messages.catalogue.productNotFound });
      return {
        quantity: line.quantity,
        message: line.quantity > 1 ? messages.cart.quantityUpdated(line.name) : messages.cart.added(line.name),
      };
    });
  } catch (error) {
    throw cartRefusal(error) ?? error;
  }
}
