import type { RateLimiter, RequestLimits } from "@/server/security/rate-limit";
import { tooManyRequests } from "@/server/security/too-many-requests";
import { t } from "../init";
import type { TRPCContext } from "../trpc";

/**
 * Refuses a caller who has already made the limit's number of these calls in its window, with
 * how long to wait; otherwise counts this one. Used after `.input()`, so only well-formed
 * submissions count; `keyOf` says whose calls they are (./caller-keys.ts).
 */
export function rateLimited(pick: (limits: RequestLimits) => RateLimiter, keyOf: (ctx: TRPCContext) => string) {
  return t.middleware(async ({ ctx, next }) => {
    const wait = await pick(ctx.limits).take(ctx.db, keyOf(ctx));
    if (wait > 0) throw tooManyRequests(wait);
    return next();
  });
}
