import type { TRPCContext } from "@/server/api/trpc";
import type { SessionUser } from "@/server/auth/session-user";

/**
 * The caller's own cart and order changes (for admins every order change and every new contact
 * message), as they happen, until the client goes (`signal`). Events carry ids only; clients
 * refetch what they show.
 */
export function liveChanges({ ctx, signal }: { ctx: Pick<TRPCContext, "live"> & { user: SessionUser }; signal: AbortSignal | undefined }) {
  return ctx.live.changes({ id: ctx.user.id, role: ctx.user.role }, signal);
}
