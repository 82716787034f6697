import { TRPCError } from "@trpc/server";
import { z } from "@/lib/zod";
import { resendConfirmationInput, safeNextPath, signInInput, signUpInput } from "./schemas";
import { messages } from "@/lib/messages";
import { byClientAddress, createTRPCRouter, publicProcedure, rateLimited } from "@/server/api/trpc";
import { homeFor } from "./home";
import { publicOrigin, UnknownOriginError } from "@/server/http/redirect";
import { AuthError } from "@/server/ports/auth";

/** Maps an auth provider's refusal to a tRPC error carrying the message the user sees. */
function toTRPCError(error: unknown, fallback: string): TRPCError {
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
  return new TRPCError({ code: "INTERNAL_SERVER_ERROR", message: fallback, cause: error });
}

export const authRouter = createTRPCRouter({
  /** The signed-in user (or null): what the navigation bar greets. */
  session: publicProcedure.query(({ ctx }) => ctx.user),

  signIn: publicProcedure
    .input(signInInput)
    .input(z.object({ next: z.string().max(500).optional() }))
    .mutation(async ({ ctx, input }) => {
      let signedIn;
      try {
        signedIn = await ctx.auth.signIn({ email: input.email, password: input.password });
      } catch (error) {
        // The sign-in form shows 'Error: ' + this message.
        throw toTRPCError(error, messages.auth.invalidCredentials);
      }
      const user = await ctx.sessionUserFor(signedIn);
      return { message: messages.auth.signInSuccess, redirectTo: safeNextPath(input.next, homeFor(user)) };
    }),

  signUp: publicProcedure
    .input(signUpInput)
    .use(rateLimited((limits) => limits.signUp, byClientAddress))
    .mutation(async ({ ctx, input }) => {
      let result;
      try {
        result = await ctx.auth.signUp({ email: input.email, password: input.password, fullName: input.fullName, origin: publicOrigin(ctx.headers) });
      } catch (error) {
        throw toTRPCError(error, messages.auth.signUpFailed);
      }
      return result.signedIn ? { message: messages.auth.signUpSuccess, signedIn: true } : { message: messages.auth.checkInbox, signedIn: false };
    }),

  /** Sends the sign-up confirmation again (Supabase with confirmations on); limited per client address. */
  resendConfirmation: publicProcedure
    .input(resendConfirmationInput)
    .use(rateLimited((limits) => limits.signUp, byClientAddress))
    .mutation(async ({ ctx, input }) => {
      try {
        await ctx.auth.resendConfirmation({ email: input.email, origin: publicOrigin(ctx.headers) });
      } catch (error) {
        throw toTRPCError(error, messages.auth.signUpFailed);
      }
      return { message: messages.auth.confirmationResent };
    }),

  signOut: publicProcedure.mutation(async ({ ctx }) => {
    await ctx.auth.signOut();
    return { ok: true };
  }),

  /** Where to send the browser for Google sign-in; a clear message where it is not configured. */
  googleStart: publicProcedure
    .input(z.object({ next: z.string().max(500).optional() }))
    .mutation(async ({ ctx, input }) => {
      try {
        return { url: await ctx.auth.googleSignInUrl({ origin: publicOrigin(ctx.headers), next: safeNextPath(input.next) }) };
      } catch (error) {
        throw toTRPCError(error, messages.auth.googleFailed);
      }
    }),
});
