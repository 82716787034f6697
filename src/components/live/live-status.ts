import { useSyncExternalStore } from "react";

/**
 * Whether live updates arrive: `live` (changes are pushed), `connecting` (the first join is under
 * way), `paused` (Realtime is unreachable: live views poll until it is back). The local modes'
 * SSE stream reconnects by itself and is always `live`.
 */
export type LiveStatus = "live" | "connecting" | "paused";

/*
 * One value per tab, in a module rather than a React context: the one subscription sits in the
 * site header (LiveUpdates) while the admin's status line sits under the admin navigation, in
 * trees that share no provider of ours; and a store needs no change to the layouts between them.
 */
let status: LiveStatus = "live";
const listeners = new Set<() => void>();

/** Sets the tab's live status (the live hook does, as its subscription changes state). */
export function setLiveStatus(next: LiveStatus) {
  if (next === status) return;
  status = next;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The tab's live status, kept current; `live` on the server, which shows no status line. */
export function useLiveStatus(): LiveStatus {
  return useSyncExternalStore(
    subscribe,
    () => status,
    () => "live",
  );
}

/**
 * What live views do about missed changes as the status moves: while `paused`, `catchUp` (refetch
 * what they show) every `pollMs`; on `live` again after a pause, once more for the gap since the
 * last poll. Plain timers, so the schedule is testable without React.
 */
export function followLiveStatus(catchUp: () => void, pollMs: number): { update(status: LiveStatus): void; stop(): void } {
  let poll: ReturnType<typeof setInterval> | undefined;
  return {
    update(status) {
      if (status === "paused") {
        poll ??= setInterval(catchUp, pollMs);
        return;
      }
      if (poll === undefined) return;
      clearInterval(poll);
      poll = undefined;
      // `connecting` after a pause is a new subscription (another user): it catches up as it joins.
      if (status === "live") catchUp();
    },
    stop() {
      clearInterval(poll);
      poll = undefined;
    },
  };
}
