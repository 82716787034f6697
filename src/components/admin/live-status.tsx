"use client";

import { useLiveStatus } from "@/components/live/live-status";
import { LIVE_POLL_MS } from "@/lib/constants";
import { liveMessages } from "@/lib/messages";

/**
 * Under the admin navigation while live updates are paused (Supabase Realtime unreachable): new
 * orders and messages then show up only as often as the pages poll, and admins should know.
 */
export function AdminLiveStatus() {
  const status = useLiveStatus();
  if (status !== "paused") return null;
  return (
    <div role="status" className="border-b border-accent-500 bg-accent-100 print:hidden" data-testid="live-status">
      <p className="mx-auto max-w-6xl px-4 py-2 text-sm font-medium text-ink sm:px-6">{liveMessages.paused(LIVE_POLL_MS / 1000)}</p>
    </div>
  );
}
