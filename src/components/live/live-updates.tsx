"use client";

import { useViewer } from "@/components/layout/page-viewer";
import type { LiveClientConfig } from "@/server/ports/live";
import { api } from "@/trpc/react";
import { useLiveChanges } from "./use-live-changes";

/** Keeps the signed-in user's cart and orders current in every tab and device, in every mode. */
export function LiveUpdates({ config }: { config: LiveClientConfig }) {
  const viewer = useViewer();
  // Only in the browser, where the viewer is known (a kept page's template has none).
  return viewer ? <Listener config={config} userId={viewer.id} /> : null;
}

function Listener({ config, userId }: { config: LiveClientConfig; userId: string }) {
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
