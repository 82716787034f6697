"use client";

import type { LiveClientConfig } from "@/server/ports/live";
import { api } from "@/trpc/react";
import { useLiveChanges } from "./use-live-changes";

/** Keeps the signed-in user's cart and orders current in every tab and device, in every mode. */
export function LiveUpdates({ config, userId }: { config: LiveClientConfig; userId: string }) {
  const utils = api.useUtils();
  useLiveChanges(config, userId, (table) => {
    if (table === "cart_items") {
      void utils.cart.invalidate();
    } else {
      void utils.orders.invalidate();
      void utils.adminOrders.invalidate();
    }
  });
  return null;
}
