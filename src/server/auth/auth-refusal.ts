import { TRPCError } from "@trpc/server";
import { messages } from "@/lib/messages";
import { UnknownOriginError } from "@/server/http/redirect";
import { AuthError } from "@/server/ports/auth";

/**
 * Maps an auth provider's refusal to a tRPC error carrying the message the user sees; anything
 * else comes back as it is (unexpected: the procedure's own message, middlewares/unexpected-errors.ts).
 */
export function authRefusal(error: unknown): unknown {
  if (error instanceof AuthError) {
    const code =
      error.code === "rate_limited"
        ? "TOO_MANY_REQUESTS"
        : error.code === "email_in_use"
          ? "CONFLICT"
          : error.code === "google_not_configured" || error.code === "email_not_confirmed"
            ? "PRECONDITION_FAILED"
            : error.code === "invalid_credentials"
              ? "UNAUTHORIZED"
              : "BAD_REQUEST";
    return new TRPCError({ code, message: error.message, cause: error });
  }
  // No browser sends a request without Host; a link back to the shop cannot be built for one.
  if (error instanceof UnknownOriginError) return new TRPCError({ code: "BAD_REQUEST", message: messages.auth.unknownOrigin, cause: error });
  return error;
}
