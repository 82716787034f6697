import { TRPCError } from "@trpc/server";
import { messages } from "@/lib/messages";
import { sqlErrorCode } from "@/server/db/sql-errors";

const f = messages.fulfilment;

/**
 * The fulfilment check's refusals (private.check_fulfilment() and the day's capacity,
 * 090_fulfilment.sql) in the customer's words, for checkout and accepting a quote alike; anything
 * else as it came. Each refusal changes nothing.
 */
export function toFulfilmentError(error: unknown): unknown {
  switch (sqlErrorCode(error)) {
    case "fulfilment_required":
      return new TRPCError({ code: "BAD_REQUEST", message: f.required, cause: error });
    case "collection_unavailable":
      return new TRPCError({ code: "BAD_REQUEST", message: f.collectionUnavailable, cause: error });
    case "area_unknown":
      return new TRPCError({ code: "BAD_REQUEST", message: f.areaUnknown, cause: error });
    case "address_required":
      return new TRPCError({ code: "BAD_REQUEST", message: f.addressRequired, cause: error });
    case "below_minimum":
      return new TRPCError({ code: "BAD_REQUEST", message: f.belowMinimum, cause: error });
    // Not offered (any more): a closed day, or the lead time or cut-off passed while paying.
    case "day_unavailable":
      return new TRPCError({ code: "CONFLICT", message: f.dayUnavailable, cause: error });
    case "day_full":
      return new TRPCError({ code: "CONFLICT", message: f.dayFull, cause: error });
    default:
      return error;
  }
}
