import { createTRPCRouter, signedInProcedure } from "@/server/api/trpc";

export const liveRouter = createTRPCRouter({
  /**
   * The caller's own cart and order changes (for admins every order change and every new
   * contact message), as they happen, over SSE in the local modes. Events carry ids only;
   * clients refetch what they show.
   */
  changes: signedInProcedure.subscription(({ ctx, signal }) => ctx.live.changes({ id: ctx.user.id, role: ctx.user.role }, signal)),
});
