import { TRPCError } from "@trpc/server";
import { messages } from "@/lib/messages";
import { isDatabaseUnavailable } from "@/server/db/sql-errors";
import { t } from "../init";

/** A database that cannot be reached becomes "try again in a moment" (503); anything else stays as it is. */
export function unavailableOr(error: unknown): unknown {
  return isDatabaseUnavailable(error) ? new TRPCError({ code: "SERVICE_UNAVAILABLE", message: messages.unavailable, cause: error }) : error;
}

/** Whatever a procedure made of the failure, a database that is away answers "try again" (503). */
export const databaseAvailability = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok && result.error.code !== "SERVICE_UNAVAILABLE" && isDatabaseUnavailable(result.error)) {
    return { ...result, error: unavailableOr(result.error) as TRPCError };
  }
  return result;
});
