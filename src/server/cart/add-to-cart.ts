import { sql } from "kysely";
import { TRPCError } from "@trpc/server";
import { messages } from "@/lib/messages";
import type { ScopedDb } from "@/server/db/as-caller";
import { sqlErrorCode } from "@/server/db/sql-errors";

/**
 * Adds one of a product to the caller's cart through add_to_cart() (+1 on an existing line, a
 * new line at 1, available products only) and says which, in the spec's words.
 */
export async function addToCart(db: ScopedDb, productId: string): Promise<{ message: string; quantity: number }> {
  try {
    return await db.transaction(async (trx) => {
      const { rows } = await sql<{ quantity: number }>`select quantity from public.add_to_cart(${productId}::uuid)`.execute(trx);
      const product = await trx.selectFrom("products").select("name").where("id", "=", productId).executeTakeFirstOrThrow();
      const quantity = rows[0]?.quantity ?? 1;
      return {
        quantity,
        message: quantity > 1 ? messages.cart.quantityUpdated(product.name) : messages.cart.added(product.name),
      };
    });
  } catch (error) {
    if (sqlErrorCode(error) === "product_unavailable") {
      throw new TRPCError({ code: "BAD_REQUEST", message: messages.cart.unavailable, cause: error });
    }
    throw new TRPCError({ code: "INTERNAL_SERVER_ERROR", message: messages.cart.addFailed, cause: error });
  }
}
