import type { TRPCContext } from "../trpc";
import { clientAddress, userLimitKey } from "@/server/security/rate-limit";

/** Rate-limit key: the client's address (src/server/security/rate-limit.ts says which). */
export const byClientAddress = (ctx: Pick<TRPCContext, "headers">) => `address:${clientAddress(ctx.headers)}`;

/** Rate-limit key: the signed-in customer (their address, should a visitor ever get this far). */
export const byCaller = (ctx: Pick<TRPCContext, "headers" | "user">) => (ctx.user ? userLimitKey(ctx.user.id) : byClientAddress(ctx));
