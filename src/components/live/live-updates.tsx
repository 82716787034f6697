"use client";

import { noticeLiveChange } from "@/components/admin/notices/unseen-notices";
import { useViewer } from "@/components/layout/page-viewer";
import type { LiveClientConfig, LiveViewer } from "@/server/ports/live";
import { api } from "@/trpc/react";
import { invalidateFor } from "./invalidation";
import { useLiveChanges } from "./use-live-changes";

/**
 * Keeps the signed-in user's cart and orders current in every tab and device, in every mode; for
 * admins it also hands each change to the admins' notices (new orders and messages), on every
 * page, so what arrives while they are elsewhere in the shop is still counted.
 */
export function LiveUpdates({ config, role }: { config: LiveClientConfig; role: LiveViewer["role"] }) {
  const viewer = useViewer();
  // Only in the browser, where the viewer is known (a kept page's template has none).
  return viewer ? <Listener config={config} viewer={{ id: viewer.id, role }} /> : null;
}

function Listener({ config, viewer }: { config: LiveClientConfig; viewer: LiveViewer }) {
  const utils = api.useUtils();
  useLiveChanges(config, viewer, (change) => {
    invalidateFor(utils, change.table);
    if (viewer.role === "admin") noticeLiveChange(change);
  });
  return null;
}
