import { TRPCError } from "@trpc/server";
import { messages } from "@/lib/messages";
import { t } from "../init";

/**
 * Admins only: FORBIDDEN for anyone else. Goes after `signedIn`, which has already answered a
 * visitor UNAUTHORIZED. RLS checks again.
 */
export const adminsOnly = t.middleware(({ ctx, next }) => {
  if (ctx.user?.role !== "admin") throw new TRPCError({ code: "FORBIDDEN", message: messages.auth.adminsOnly });
  return next();
});
