import "server-only";

import { TRPCError } from "@trpc/server";
import { cache } from "react";
import { caller } from "@/trpc/caller";

/**
 * The product of a details page, or null for an unknown or malformed id (the layout answers
 * those with a 404). Once per request: the layout, the metadata and the page all ask.
 */
export const findProduct = cache(async (id: string) => {
  try {
    return await caller.catalogue.byId({ id });
  } catch (error) {
    if (error instanceof TRPCError && (error.code === "NOT_FOUND" || error.code === "BAD_REQUEST")) return null;
    throw error;
  }
});
