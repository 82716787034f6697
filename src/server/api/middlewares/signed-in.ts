import { TRPCError } from "@trpc/server";
import { messages } from "@/lib/messages";
import { t } from "../init";

/** Signed-in callers only: UNAUTHORIZED for a visitor; after it, `ctx.user` is never null. */
export const signedIn = t.middleware(({ ctx, next }) => {
  if (!ctx.user) throw new TRPCError({ code: "UNAUTHORIZED", message: messages.auth.signInRequired });
  return next({ ctx: { user: ctx.user } });
});
