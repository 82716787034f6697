"use client";

import { useEffect, useRef } from "react";
import type { LiveChange, LiveClientConfig } from "@/server/ports/live";
import { api } from "@/trpc/react";

/**
 * The one hook every live view relies on, whatever the run mode (ARCHITECTURE §7): calls
 * `onChange` with the table that changed, from the server's SSE stream in the local modes or
 * from Supabase Realtime in the browser in Supabase mode.
 */
export function useLiveChanges(config: LiveClientConfig, userId: string, onChange: (table: LiveChange["table"]) => void) {
  const latest = useRef(onChange);
  useEffect(() => {
    latest.current = onChange;
  });

  api.live.changes.useSubscription(undefined, {
    enabled: config.mode === "local",
    onData: (event) => latest.current(event.table),
  });

  const supabase = config.mode === "supabase" ? config : null;
  useEffect(() => {
    if (!supabase) return;
    let stop: (() => void) | undefined;
    let cancelled = false;
    void import("./supabase-realtime").then(async ({ subscribeToRealtime }) => {
      const unsubscribe = await subscribeToRealtime({ url: supabase.url, anonKey: supabase.anonKey, userId }, (table) => latest.current(table));
      if (cancelled) unsubscribe();
      else stop = unsubscribe;
    });
    return () => {
      cancelled = true;
      stop?.();
    };
  }, [supabase?.url, supabase?.anonKey, userId]); // eslint-disable-line react-hooks/exhaustive-deps -- one channel per user and project
}
