import { messages } from "@/lib/messages";
import type { TRPCContext } from "@/server/api/trpc";
import { publicOrigin } from "@/server/http/redirect";
import { authRefusal } from "./auth-refusal";
import type { ResendConfirmationFields, SignUpFields } from "./schemas";

type Ctx = Pick<TRPCContext, "auth" | "headers">;

/** Creates an account: signed in at once, or asked to confirm the address first (Supabase with confirmations on). */
export async function signUp({ ctx, input }: { ctx: Ctx; input: SignUpFields }) {
  let result;
  try {
    result = await ctx.auth.signUp({ email: input.email, password: input.password, fullName: input.fullName, origin: publicOrigin(ctx.headers) });
  } catch (error) {
    throw authRefusal(error);
  }
  return result.signedIn ? { message: messages.auth.signUpSuccess, signedIn: true } : { message: messages.auth.checkInbox, signedIn: false };
}

/** Sends the sign-up confirmation again (Supabase with confirmations on). */
export async function resendConfirmation({ ctx, input }: { ctx: Ctx; input: ResendConfirmationFields }) {
  try {
    await ctx.auth.resendConfirmation({ email: input.email, origin: publicOrigin(ctx.headers) });
  } catch (error) {
    throw authRefusal(error);
  }
  return { message: messages.auth.confirmationResent };
}
