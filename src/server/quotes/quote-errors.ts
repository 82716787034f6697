import { TRPCError } from "@trpc/server";
import { quoteMessages as m } from "@/lib/messages";
import { isNumericOverflow, sqlErrorCode, sqlErrorDetail, stockShortfall, takenSlot } from "@/server/db/sql-errors";
import { toFulfilmentError } from "@/server/fulfilment/fulfilment-errors";

/** The quote functions' refusals (105_quotes.sql) in the caller's words; anything else as it came. */
export function toQuoteError(error: unknown): unknown {
  if (isNumericOverflow(error)) return new TRPCError({ code: "BAD_REQUEST", message: m.linePriceInvalid, cause: error });
  const refuse = (code: "BAD_REQUEST" | "CONFLICT" | "NOT_FOUND" | "FORBIDDEN", message: string) => new TRPCError({ code, message, cause: error });
  switch (sqlErrorCode(error)) {
    case "quote_unknown":
      return refuse("NOT_FOUND", m.notFound);
    case "admins_only":
      return refuse("FORBIDDEN", m.notFound);
    case "quote_expired":
      return refuse("CONFLICT", m.expired);
    case "quote_superseded":
      return refuse("CONFLICT", m.superseded);
    case "quote_declined":
      return refuse("CONFLICT", m.declinedAlready);
    case "quote_accepted":
      return refuse("CONFLICT", m.acceptedAlready);
    case "quote_closed":
      return refuse("CONFLICT", m.closed);
    case "quote_not_draft":
    case "quote_frozen":
      return refuse("CONFLICT", m.notDraft);
    case "quote_description_invalid":
      return refuse("BAD_REQUEST", m.descriptionRequired);
    case "quote_items_invalid":
      return refuse("BAD_REQUEST", m.quantityInvalid);
    case "quote_date_invalid":
      return refuse("BAD_REQUEST", m.dateInvalid);
    case "quote_files_invalid":
      return refuse("BAD_REQUEST", m.filesInvalid);
    case "quote_validity_invalid":
      return refuse("BAD_REQUEST", m.validityRequired);
    case "quote_lines_invalid":
      return refuse("BAD_REQUEST", m.linesRequired);
    case "quote_reason_required":
      return refuse("BAD_REQUEST", m.declineReasonRequired);
    case "quote_message_required":
      return refuse("BAD_REQUEST", m.changeRequired);
    case "purchase_order_invalid":
      return refuse("BAD_REQUEST", m.purchaseOrderTooLong);
    case "product_unavailable":
      return refuse("BAD_REQUEST", m.productUnavailable);
    case "not_enough_stock": {
      const { name, left } = stockShortfall(error);
      return refuse("CONFLICT", m.notEnoughStock(name ?? "an item", left));
    }
    // A booked line's time was taken meanwhile (or is no longer offered): named, nothing changed.
    case "slot_taken": {
      const { name, when } = takenSlot(error);
      return refuse("CONFLICT", m.slotTaken(name, when));
    }
    case "slot_required": {
      const name = sqlErrorDetail(error)?.name;
      return refuse("BAD_REQUEST", m.slotRequired(typeof name === "string" ? name : "each booking"));
    }
    case "quote_slots_invalid":
      return refuse("BAD_REQUEST", m.slotsInvalid);
    // Delivery or collection: checkout's own refusals and words.
    default:
      return toFulfilmentError(error);
  }
}

/** Runs a quote function's call, its refusals in the caller's words. */
export async function quoteCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw toQuoteError(error);
  }
}
