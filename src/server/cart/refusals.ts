import { TRPCError } from "@trpc/server";
import { messages } from "@/lib/messages";
import { sqlErrorCode, violatesCheck } from "@/server/db/sql-errors";

/** cart_items.quantity's check (core schema migration): 1 to MAX_CART_LINE_QUANTITY of one product. */
const LINE_QUANTITY_CHECK = "cart_items_quantity_check";

/**
 * The refusal of a write that would take a cart line past its limit (the database's check
 * decides, so two tabs adding at once cannot slip past it), or undefined for any other error.
 */
export function lineLimitRefusal(error: unknown): TRPCError | undefined {
  return violatesCheck(error, LINE_QUANTITY_CHECK) ? new TRPCError({ code: "BAD_REQUEST", message: messages.cart.lineLimit, cause: error }) : undefined;
}

/**
 * What the cart's SQL refused, in the spec's words (add_to_cart(), add_variant_to_cart(),
 * increase_cart_line(): each checks in one order, so a line that breaks two rules is told the
 * first), or undefined for any other error.
 */
export function cartRefusal(error: unknown): TRPCError | undefined {
  switch (sqlErrorCode(error)) {
    case "product_unavailable":
      return new TRPCError({ code: "BAD_REQUEST", message: messages.cart.unavailable, cause: error });
    case "one_booking_per_line":
      return new TRPCError({ code: "BAD_REQUEST", message: messages.cart.oneBookingPerLine, cause: error });
    case "not_enough_stock":
      return new TRPCError({ code: "CONFLICT", message: messages.cart.notEnoughStock, cause: error });
    default:
      return lineLimitRefusal(error);
  }
}
