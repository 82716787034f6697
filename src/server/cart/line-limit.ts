import { TRPCError } from "@trpc/server";
import { messages } from "@/lib/messages";
import { violatesCheck } from "@/server/db/sql-errors";

/** cart_items.quantity's check (core schema migration): 1 to MAX_CART_LINE_QUANTITY of one product. */
const LINE_QUANTITY_CHECK = "cart_items_quantity_check";

/**
 * The refusal of a write that would take a cart line past its limit (the database's check
 * decides, so two tabs adding at once cannot slip past it), or undefined for any other error.
 */
export function lineLimitRefusal(error: unknown): TRPCError | undefined {
  return violatesCheck(error, LINE_QUANTITY_CHECK) ? new TRPCError({ code: "BAD_REQUEST", message: messages.cart.lineLimit, cause: error }) : undefined;
}
