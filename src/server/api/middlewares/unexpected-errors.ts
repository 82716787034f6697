import { TRPCError } from "@trpc/server";
import { messages } from "@/lib/messages";
import { t } from "../init";

/**
 * The one place where a failure nobody expected becomes INTERNAL_SERVER_ERROR with a message a
 * person can read: the procedure's own (`.meta({ failure })` in its router, e.g. "Failed to place
 * order. Please try again.") or the shop's general one. Handlers throw TRPCErrors only for what
 * they expect (a refusal, a conflict, a row that is gone) and let everything else through; the
 * cause stays on the error for the server's log (src/app/api/trpc/[trpc]/route.ts), its text never
 * reaches the client (a database error's message can quote a row).
 */
export const unexpectedErrors = t.middleware(async ({ meta, next }) => {
  const result = await next();
  if (result.ok || result.error.code !== "INTERNAL_SERVER_ERROR") return result;
  const cause = result.error.cause ?? result.error;
  return { ...result, error: new TRPCError({ code: "INTERNAL_SERVER_ERROR", message: meta?.failure ?? messages.unexpected, cause }) };
});
