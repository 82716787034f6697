import { TRPCError } from "@trpc/server";
import { accountMessages } from "@/lib/messages";
import type { TRPCContext } from "@/server/api/trpc";
import { publicOrigin } from "@/server/http/redirect";
import { authRefusal } from "./auth-refusal";
import { homeFor } from "./home";
import type { ChangeEmailFields, ChangePasswordFields, ConfirmEmailChangeFields, RequestPasswordResetFields, ResetPasswordFields } from "./schemas";

/*
 * Account recovery and account settings (issue 34): the procedures over the auth port, so every
 * run mode answers the same. Nothing here logs an input: tokens, passwords and links stay out of
 * the server's log (authRefusal keeps the provider's error as the cause, never the input).
 */

/**
 * "Forgot password?": always the same answer, whether or not the address has an account. The
 * client address's limit is counted by the procedure's middleware; the e-mail address's here.
 */
export async function requestPasswordReset({ ctx, input }: { ctx: Pick<TRPCContext, "auth" | "headers" | "db" | "limits">; input: RequestPasswordResetFields }) {
  const wait = await ctx.limits.passwordResetByEmail.take(ctx.db, `email:${input.email}`);
  if (wait > 0) throw new TRPCError({ code: "TOO_MANY_REQUESTS", message: accountMessages.resetLimited });
  try {
    await ctx.auth.requestPasswordReset({ email: input.email, origin: publicOrigin(ctx.headers) });
  } catch (error) {
    throw authRefusal(error);
  }
  return { message: accountMessages.resetRequested };
}

/** Sets the new password from a reset link; signed in afterwards, every other session ended. */
export async function resetPassword({ ctx, input }: { ctx: Pick<TRPCContext, "auth" | "sessionUserFor">; input: ResetPasswordFields }) {
  let user;
  try {
    user = await ctx.auth.resetPassword({ token: input.token, password: input.password });
  } catch (error) {
    throw authRefusal(error);
  }
  const sessionUser = await ctx.sessionUserFor(user);
  return { message: accountMessages.passwordReset, redirectTo: homeFor(sessionUser) };
}

/** The profile's "Change password": the current password first; other sessions end. */
export async function changePassword({ ctx, input }: { ctx: Pick<TRPCContext, "auth">; input: ChangePasswordFields }) {
  try {
    await ctx.auth.changePassword({ currentPassword: input.currentPassword, newPassword: input.password });
  } catch (error) {
    throw authRefusal(error);
  }
  return { message: accountMessages.passwordChanged };
}

/** The profile's "Change e-mail": a link to the new address; nothing changes until it is opened. */
export async function changeEmail({ ctx, input }: { ctx: Pick<TRPCContext, "auth" | "headers" | "user">; input: ChangeEmailFields }) {
  if (ctx.user?.email?.toLowerCase() === input.email) throw new TRPCError({ code: "BAD_REQUEST", message: accountMessages.emailUnchanged });
  try {
    await ctx.auth.requestEmailChange({ newEmail: input.email, origin: publicOrigin(ctx.headers) });
  } catch (error) {
    throw authRefusal(error);
  }
  return { message: accountMessages.emailChangeRequested(input.email) };
}

/** Opening an e-mail change link (local modes): the account's address becomes the new one. */
export async function confirmEmailChange({ ctx, input }: { ctx: Pick<TRPCContext, "auth">; input: ConfirmEmailChangeFields }) {
  let user;
  try {
    user = await ctx.auth.confirmEmailChange({ token: input.token });
  } catch (error) {
    throw authRefusal(error);
  }
  return { message: accountMessages.emailChanged(user.email ?? ""), email: user.email };
}
