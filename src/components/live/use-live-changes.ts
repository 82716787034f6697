"use client";

import { useEffect, useRef } from "react";
import type { LiveChange, LiveClientConfig, LiveViewer } from "@/server/ports/live";
import { api } from "@/trpc/react";

/**
 * The one hook every live view relies on, whatever the run mode (ARCHITECTURE §7): calls
 * `onChange` with each change (table, operation, row id) from the server's SSE stream in the
 * local modes or from Supabase Realtime in the browser in Supabase mode. Mounted once per page
 * (LiveUpdates), which hands the changes on: one subscription per tab.
 */
export function useLiveChanges(config: LiveClientConfig, viewer: LiveViewer, onChange: (change: LiveChange) => void) {
  const latest = useRef(onChange);
  useEffect(() => {
    latest.current = onChange;
  });

  api.live.changes.useSubscription(undefined, {
    enabled: config.mode === "local",
    onData: (change) => latest.current(change),
  });

  const supabase = config.mode === "supabase" ? config : null;
  const { id, role } = viewer;
  useEffect(() => {
    if (!supabase) return;
    let stop: (() => void) | undefined;
    let cancelled = false;
    void import("./supabase-realtime").then(async ({ subscribeToRealtime }) => {
      const unsubscribe = await subscribeToRealtime({ url: supabase.url, anonKey: supabase.anonKey, viewer: { id, role } }, (change) => latest.current(change));
      if (cancelled) unsubscribe();
      else stop = unsubscribe;
    });
    return () => {
      cancelled = true;
      stop?.();
    };
  }, [supabase?.url, supabase?.anonKey, id, role]); // eslint-disable-line react-hooks/exhaustive-deps -- one channel per user and project
}
