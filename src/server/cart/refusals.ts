import { TRPCError } from "@trpc/server";
import { messages, quoteMessages } from "@/lib/messages";
import { sqlErrorCode, sqlErrorDetail, violatesCheck, violatesForeignKey } from "@/server/db/sql-errors";

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
  const refuse = (code: "BAD_REQUEST" | "CONFLICT", message: string) => new TRPCError({ code, message, cause: error });
  const field = () => (typeof sqlErrorDetail(error)?.field === "string" ? String(sqlErrorDetail(error)?.field) : "");
  switch (sqlErrorCode(error)) {
    case "product_unavailable":
      return refuse("BAD_REQUEST", messages.cart.unavailable);
    case "one_booking_per_line":
      return refuse("BAD_REQUEST", messages.cart.oneBookingPerLine);
    case "not_enough_stock":
      return refuse("CONFLICT", messages.cart.notEnoughStock);
    case "slot_required":
      return refuse("BAD_REQUEST", messages.cart.slotRequired);
    case "quote_only":
      return refuse("BAD_REQUEST", quoteMessages.quoteOnly);
    case "variant_required":
      return refuse("BAD_REQUEST", messages.cart.variantRequired);
    case "personalisation_required":
      return refuse("BAD_REQUEST", messages.cart.personalisationRequired(field()));
    case "personalisation_too_long":
      return refuse("BAD_REQUEST", messages.cart.personalisationTooLong(field()));
    case "personalisation_invalid":
      return refuse("BAD_REQUEST", messages.cart.personalisationInvalid);
  }
  // The caller's profile is gone: their account was deleted (in another tab) while this request
  // was under way, after its session was checked. They are signed out now.
  if (violatesForeignKey(error, "cart_items_user_id_fkey")) {
    return new TRPCError({ code: "UNAUTHORIZED", message: messages.auth.signInRequired, cause: error });
  }
  return lineLimitRefusal(error);
}
