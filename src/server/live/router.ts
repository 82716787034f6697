import { createTRPCRouter, signedInProcedure } from "@/server/api/trpc";
import { liveChanges } from "./changes";

export const liveRouter = createTRPCRouter({
  /** The caller's changes as they happen, over SSE in the local modes. */
  changes: signedInProcedure.subscription(liveChanges),
});
