import { accountMessages, messages } from "@/lib/messages";
import { byClientAddress } from "@/server/api/middlewares/caller-keys";
import { rateLimited } from "@/server/api/middlewares/rate-limit";
import { createTRPCRouter, publicProcedure } from "@/server/api/trpc";
import { confirmEmailChange, requestPasswordReset, resetPassword } from "./account-recovery";
import { confirmEmailChangeInput, nextPathInput, requestPasswordResetInput, resendConfirmationInput, resetPasswordInput, signInInput, signUpInput } from "./schemas";
import { currentUser, googleStart, signIn, signOut } from "./sign-in";
import { resendConfirmation, signUp } from "./sign-up";

export const authRouter = createTRPCRouter({
  /** The signed-in user (or null): what the navigation bar greets. */
  session: publicProcedure.query(currentUser),
  signIn: publicProcedure.meta({ failure: messages.auth.invalidCredentials }).input(signInInput).input(nextPathInput).mutation(signIn),
  /** Limited per client address. */
  signUp: publicProcedure.meta({ failure: messages.auth.signUpFailed }).input(signUpInput).use(rateLimited((limits) => limits.signUp, byClientAddress)).mutation(signUp),
  /** Sends the sign-up confirmation again; limited per client address, with sign-ups. */
  resendConfirmation: publicProcedure.meta({ failure: messages.auth.signUpFailed }).input(resendConfirmationInput).use(rateLimited((limits) => limits.signUp, byClientAddress)).mutation(resendConfirmation),
  signOut: publicProcedure.mutation(signOut),
  /** "Forgot password?": the same answer for every address; limited per client address here and per e-mail inside. */
  requestPasswordReset: publicProcedure.meta({ failure: accountMessages.resetRequestFailed })
    .input(requestPasswordResetInput)
    .use(rateLimited((limits) => limits.passwordResetByAddress, byClientAddress))
    .mutation(requestPasswordReset),
  /** A new password from a reset link; signs in and ends every other session. */
  resetPassword: publicProcedure.meta({ failure: accountMessages.resetFailed }).input(resetPasswordInput).mutation(resetPassword),
  /** An e-mail change link opened (local modes). */
  confirmEmailChange: publicProcedure.meta({ failure: accountMessages.emailChangeFailed }).input(confirmEmailChangeInput).mutation(confirmEmailChange),
  /** Where to send the browser for Google sign-in. */
  googleStart: publicProcedure.meta({ failure: messages.auth.googleFailed }).input(nextPathInput).mutation(googleStart),
});
