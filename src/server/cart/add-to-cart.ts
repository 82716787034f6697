import { TRPCError } from "@trpc/server";
import { messages, quoteMessages } from "@/lib/messages";
import type { TRPCContext } from "@/server/api/trpc";
import { sqlErrorCode, sqlErrorDetail, violatesForeignKey } from "@/server/db/sql-errors";
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
    const code = sqlErrorCode(error);
    if (code === "slot_required") throw new TRPCError({ code: "BAD_REQUEST", message: messages.cart.slotRequired, cause: error });
    if (code === "quote_only") throw new TRPCError({ code: "BAD_REQUEST", message: quoteMessages.quoteOnly, cause: error });
    if (code === "variant_required") throw new TRPCError({ code: "BAD_REQUEST", message: messages.cart.variantRequired, cause: error });
    const field = typeof sqlErrorDetail(error)?.field === "string" ? String(sqlErrorDetail(error)?.field) : "";
    if (code === "personalisation_required") throw new TRPCError({ code: "BAD_REQUEST", message: messages.cart.personalisationRequired(field), cause: error });
    if (code === "personalisation_too_long") throw new TRPCError({ code: "BAD_REQUEST", message: messages.cart.personalisationTooLong(field), cause: error });
    if (code === "personalisation_invalid") throw new TRPCError({ code: "BAD_REQUEST", message: messages.cart.personalisationInvalid, cause: error });
    const refusal = cartRefusal(error);
    if (refusal) throw refusal;
    // The caller's profile is gone: their account was deleted (in another tab) while this request
    // was under way, after its session was checked. They are signed out now.
    if (violatesForeignKey(error, "cart_items_user_id_fkey")) {
      throw new TRPCError({ code: "UNAUTHORIZED", message: messages.auth.signInRequired, cause: error });
    }
    throw error;
  }
}
