import { TRPCError } from "@trpc/server";
import { messages } from "@/lib/messages";
import type { TRPCContext } from "@/server/api/trpc";
import { sqlErrorCode, violatesForeignKey } from "@/server/db/sql-errors";
import { addOne } from "./cart-queries";
import { lineLimitRefusal } from "./line-limit";
import type { ProductRefInput } from "./schemas";

/**
 * Adds one of a product to the caller's cart through add_to_cart() (+1 on an existing line, a
 * new line at 1, available products only) and says which, in the spec's words.
 */
export async function addToCart({ ctx, input }: { ctx: Pick<TRPCContext, "db">; input: ProductRefInput }): Promise<{ message: string; quantity: number }> {
  try {
    return await ctx.db.transaction(async (trx) => {
      const line = await addOne(trx, input.productId);
      if (!line) throw new Error("add_to_cart() wrote no line");
      return {
        quantity: line.quantity,
        message: line.quantity > 1 ? messages.cart.quantityUpdated(line.name) : messages.cart.added(line.name),
      };
    });
  } catch (error) {
    if (sqlErrorCode(error) === "product_unavailable") {
      throw new TRPCError({ code: "BAD_REQUEST", message: messages.cart.unavailable, cause: error });
    }
    const limit = lineLimitRefusal(error);
    if (limit) throw limit;
    // The caller's profile is gone: their account was deleted (in another tab) while this request
    // was under way, after its session was checked. They are signed out now.
    if (violatesForeignKey(error, "cart_items_user_id_fkey")) {
      throw new TRPCError({ code: "UNAUTHORIZED", message: messages.auth.signInRequired, cause: error });
    }
    throw error;
  }
}
