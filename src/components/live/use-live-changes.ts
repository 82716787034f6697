"use client";

import { useEffect, useRef, useState } from "react";
import { LIVE_POLL_MS } from "@/lib/constants";
import type { LiveChange, LiveClientConfig, LiveViewer } from "@/server/ports/live";
import { api } from "@/trpc/react";
import { invalidateAll } from "./invalidation";
import { followLiveStatus, setLiveStatus, type LiveStatus } from "./live-status";

/**
 * The one hook every live view relies on, whatever the run mode (docs/architecture.md#live-updates): calls
 * `onChange` with each change (table, operation, row id) from the server's SSE stream in the
 * local modes or from Supabase Realtime in the browser in Supabase mode. Mounted once per page
 * (LiveUpdates), which hands the changes on: one subscription per tab. While Realtime is
 * unreachable it refetches what live views show every LIVE_POLL_MS instead, and once more when
 * Realtime is back; the tab's status (useLiveStatus) says which it is doing.
 */
export function useLiveChanges(config: LiveClientConfig, viewer: LiveViewer, onChange: (change: LiveChange) => void): LiveStatus {
  const latest = useRef(onChange);
  const utils = api.useUtils();
  const { id, role } = viewer;
  // Everything a change could have touched, for when changes may have been missed.
  const catchUp = useRef(() => {});
  useEffect(() => {
    latest.current = onChange;
    catchUp.current = () => invalidateAll(utils);
  });

  api.live.changes.useSubscription(undefined, {
    enabled: config.mode === "local",
    onData: (change) => latest.current(change),
  });

  const supabase = config.mode === "supabase" ? config : null;
  const [realtimeStatus, setRealtimeStatus] = useState<LiveStatus>("connecting");
  useEffect(() => {
    if (!supabase) return;
    let stop: (() => void) | undefined;
    let cancelled = false;
    import("./supabase-realtime")
      .then(async ({ subscribeToRealtime }) => {
        const unsubscribe = await subscribeToRealtime(
          { url: supabase.url, anonKey: supabase.anonKey, viewer: { id, role } },
          { onChange: (change) => latest.current(change), onStatus: setRealtimeStatus },
        );
        if (cancelled) unsubscribe();
        else stop = unsubscribe;
      })
      // The chunk or the SDK failed to load (offline, a deploy in between): poll, as when Realtime is down.
      .catch(() => {
        if (!cancelled) setRealtimeStatus("paused");
      });
    return () => {
      cancelled = true;
      stop?.();
    };
  }, [supabase?.url, supabase?.anonKey, id, role]); // eslint-disable-line react-hooks/exhaustive-deps -- one channel per user and project

  // The local modes' SSE stream reconnects by itself (httpSubscriptionLink); it is never shown as paused.
  const status: LiveStatus = supabase ? realtimeStatus : "live";
  const follower = useRef<ReturnType<typeof followLiveStatus>>(null);
  useEffect(() => {
    const follow = followLiveStatus(() => catchUp.current(), LIVE_POLL_MS);
    follower.current = follow;
    return () => {
      follow.stop();
      setLiveStatus("live");
    };
  }, []);
  useEffect(() => {
    setLiveStatus(status);
    follower.current?.update(status);
  }, [status]);

  return status;
}
