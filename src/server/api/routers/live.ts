import { createTRPCRouter, signedInProcedure } from "@/server/api/trpc";
import { changesFor, liveHubFor } from "@/server/live/live-hub";

export const liveRouter = createTRPCRouter({
  /**
   * Local modes: the caller's own cart and order changes (every order change for admins), as
   * they happen, over SSE. Events carry ids only; clients refetch what they show.
   */
  changes: signedInProcedure.subscription(({ ctx, signal }) =>
    changesFor(liveHubFor(ctx.database), { id: ctx.user.id, role: ctx.user.role }, signal),
  ),
});
