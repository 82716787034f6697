import { TRPCError } from "@trpc/server";
import { ZodError } from "zod";
import { t } from "../init";

/**
 * A refused input answers with the first problem's own message (the same text the form shows),
 * not zod's issue list; the full list stays in `data.zodError`.
 */
export const readableValidationErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok && result.error.code === "BAD_REQUEST" && result.error.cause instanceof ZodError) {
    const message = result.error.cause.issues[0]?.message ?? "Invalid input.";
    return { ...result, error: new TRPCError({ code: "BAD_REQUEST", message, cause: result.error.cause }) };
  }
  return result;
});
