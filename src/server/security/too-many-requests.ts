import { TRPCError } from "@trpc/server";
import { messages } from "@/lib/messages";

/**
 * The refusal of a call over its limit, saying how many whole minutes to wait. Shared by the
 * rate-limit middleware and checkout, which counts its limit inside the payment's first statement.
 */
export function tooManyRequests(waitMs: number): TRPCError {
  return new TRPCError({ code: "TOO_MANY_REQUESTS", message: messages.security.slowDown(Math.ceil(waitMs / 60_000)) });
}
