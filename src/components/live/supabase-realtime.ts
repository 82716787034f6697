import type { RealtimeChannel, RealtimeClient, RealtimeClientOptions, RealtimePostgresChangesPayload, RealtimeSystemPayload } from "@supabase/supabase-js";
import { LIVE_JOIN_GRACE_MS } from "@/lib/constants";
import { isLiveOp, type LiveChange, type LiveTable, type LiveViewer } from "@/server/ports/live";
import type { LiveStatus } from "./live-status";

type Row = Record<string, unknown>;

/** What a live subscription tells its owner: each change, and whether changes are arriving. */
export interface RealtimeHandlers {
  onChange(change: LiveChange): void;
  onStatus(status: LiveStatus): void;
}

/** What the subscription needs of realtime-js's client (a Supabase client's `realtime`). */
export type RealtimeHost = Pick<RealtimeClient, "channel" | "removeChannel" | "setAuth">;

/**
 * Waits between attempts to reach Realtime again (`tries` counts from 1): quick at first for a
 * blip, then every 30 s. realtime-js's own schedule settles at 10 s, which is a console error in
 * the browser (the failed WebSocket) six times a minute for as long as Realtime is down.
 */
const RECONNECT_DELAYS_MS = [1_000, 2_000, 5_000, 10_000, 30_000] as const;

/** The wait before reconnection attempt `tries` (1, 2, ...): grows, then stays at 30 s. */
export function reconnectDelayMs(tries: number): number {
  return RECONNECT_DELAYS_MS[Math.min(Math.max(tries, 1), RECONNECT_DELAYS_MS.length) - 1]!;
}

/**
 * The Realtime client's options: the back-off above, and a logger that drops realtime-js's
 * per-attempt transport chatter (watchRealtime reports an outage once, as a status and a warning).
 */
export function realtimeOptions(reconnectAfterMs: (tries: number) => number = reconnectDelayMs): RealtimeClientOptions {
  return { reconnectAfterMs, logger: () => {} };
}

/** A postgres_changes payload as the live port's change: ids only, like the local modes' events. */
function changeOf(table: LiveTable, payload: RealtimePostgresChangesPayload<Row>): LiveChange | undefined {
  // Deletes carry the primary key in `old` (not filtered by RLS, so nothing more is sent).
  const row: Row = payload.eventType === "DELETE" ? payload.old : payload.new;
  return typeof row.id === "string" && isLiveOp(payload.eventType) ? { table, op: payload.eventType, id: row.id } : undefined;
}

function describe(reason: unknown): string {
  return reason instanceof Error ? reason.message : String(reason);
}

/**
 * The viewer's live changes through Supabase Realtime's postgres_changes: their cart lines, the
 * orders they may read, and for admins new contact messages (Realtime sends only rows RLS lets
 * them read; deletes carry ids only). Reports `connecting`, then `live` once joined and `paused`
 * whenever the channel is not (an error reply, a dropped or refused socket, a join not answered
 * within `joinGraceMs`, a channel the server closed), with one console warning per outage.
 * realtime-js rejoins by itself after errors; a channel the server closed it drops, so that one
 * is opened again here. Returns the function that stops it all.
 */
export function watchRealtime(
  host: RealtimeHost,
  viewer: LiveViewer,
  handlers: RealtimeHandlers,
  timing: { joinGraceMs: number; reopenAfterMs: (tries: number) => number } = { joinGraceMs: LIVE_JOIN_GRACE_MS, reopenAfterMs: reconnectDelayMs },
): () => void {
  const { id, role } = viewer;
  let status: LiveStatus = "connecting";
  let stopped = false;
  let closes = 0;
  let graceTimer: ReturnType<typeof setTimeout> | undefined;
  let reopenTimer: ReturnType<typeof setTimeout> | undefined;

  const report = (next: LiveStatus, reason?: unknown) => {
    if (stopped || next === status) return;
    if (next === "paused") console.warn(`Live updates paused (${describe(reason)}): refreshing by polling until Supabase Realtime answers again.`);
    status = next;
    handlers.onStatus(next);
  };
  const forward = (table: LiveTable) => (payload: RealtimePostgresChangesPayload<Row>) => {
    const change = changeOf(table, payload);
    if (change) handlers.onChange(change);
  };

  const expectJoin = () => {
    clearTimeout(graceTimer);
    graceTimer = setTimeout(() => report("paused", `not joined within ${timing.joinGraceMs} ms`), timing.joinGraceMs);
  };
  const open = (): RealtimeChannel => {
    let channel = host
      .channel(`shop-live-${id}`)
      .on<Row>("postgres_changes", { event: "*", schema: "public", table: "cart_items", filter: `user_id=eq.${id}` }, forward("cart_items"))
      .on<Row>("postgres_changes", { event: "*", schema: "public", table: "orders" }, forward("orders"))
      .on<Row>("postgres_changes", { event: "*", schema: "public", table: "quote_requests" }, forward("quote_requests"));
    // RLS would send a customer none anyway; not asking spares Realtime the check per message.
    if (role === "admin") {
      channel = channel
        .on<Row>("postgres_changes", { event: "INSERT", schema: "public", table: "contact_messages" }, forward("contact_messages"))
        .on<Row>("postgres_changes", { event: "INSERT", schema: "public", table: "low_stock_notices" }, forward("low_stock_notices"));
    }
    // Realtime says so when the database side of a joined channel fails (or recovers).
    channel.on("system", {}, (payload: RealtimeSystemPayload) => {
      if (payload.extension !== "postgres_changes") return;
      if (payload.status === "error") report("paused", payload.message);
      else if (payload.status === "ok" && channel.state === "joined") report("live");
    });
    channel.subscribe((state, error) => {
      if (stopped) return;
      if (state === "SUBSCRIBED") {
        clearTimeout(graceTimer);
        closes = 0;
        report("live");
      } else if (state === "CLOSED") {
        report("paused", "channel closed by the server");
        reopenTimer = setTimeout(() => {
          if (stopped) return;
          expectJoin();
          current = open();
        }, timing.reopenAfterMs(++closes));
      } else {
        report("paused", error ?? state);
      }
    });
    return channel;
  };

  handlers.onStatus("connecting");
  expectJoin();
  let current: RealtimeChannel | undefined;
  // realtime-js queues a join made before the socket opens with the payload of that moment and
  // later sends only a token it does not hold yet: subscribing before the session is read would
  // join with the anon key alone (RLS as anon: no orders) and never send the user's token.
  void host
    .setAuth()
    .catch(() => {})
    .then(() => {
      if (!stopped) current = open();
    });
  return () => {
    stopped = true;
    clearTimeout(graceTimer);
    clearTimeout(reopenTimer);
    if (current) void host.removeChannel(current);
  };
}

/**
 * The browser side of the live port in Supabase mode. Loaded only in Supabase mode (by dynamic
 * import, as is the SDK here), so the local modes never ship it.
 */
export async function subscribeToRealtime(config: { url: string; anonKey: string; viewer: LiveViewer }, handlers: RealtimeHandlers): Promise<() => void> {
  const { createBrowserClient } = await import("@supabase/ssr");
  const supabase = createBrowserClient(config.url, config.anonKey, { realtime: realtimeOptions() });
  return watchRealtime(supabase.realtime, config.viewer, handlers);
}
