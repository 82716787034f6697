import { messages } from "@/lib/messages";
import type { TRPCContext } from "@/server/api/trpc";
import { publicOrigin } from "@/server/http/redirect";
import { authRefusal } from "./auth-refusal";
import { homeFor } from "./home";
import { safeNextPath, type NextPathInput, type SignInFields } from "./schemas";
import type { SessionUser } from "./session-user";

/** The signed-in user (or null): what the navigation bar greets. */
export function currentUser({ ctx }: { ctx: Pick<TRPCContext, "user"> }): SessionUser | null {
  return ctx.user;
}

/** Signs in with e-mail and password, and says where to go next: `next` if it is on this site, else the caller's home. */
export async function signIn({ ctx, input }: { ctx: Pick<TRPCContext, "auth" | "sessionUserFor">; input: SignInFields & NextPathInput }) {
  let signedIn;
  try {
    signedIn = await ctx.auth.signIn({ email: input.email, password: input.password });
  } catch (error) {
    // The sign-in form shows 'Error: ' + this message.
    throw authRefusal(error);
  }
  const user = await ctx.sessionUserFor(signedIn);
  return { message: messages.auth.signInSuccess, redirectTo: safeNextPath(input.next, homeFor(user)) };
}

export async function signOut({ ctx }: { ctx: Pick<TRPCContext, "auth"> }) {
  await ctx.auth.signOut();
  return { ok: true };
}

/** Where to send the browser for Google sign-in; a clear message where it is not configured. */
export async function googleStart({ ctx, input }: { ctx: Pick<TRPCContext, "auth" | "headers">; input: NextPathInput }) {
  try {
    return { url: await ctx.auth.googleSignInUrl({ origin: publicOrigin(ctx.headers), next: safeNextPath(input.next) }) };
  } catch (error) {
    throw authRefusal(error);
  }
}
