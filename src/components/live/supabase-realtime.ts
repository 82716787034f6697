import type { RealtimePostgresChangesPayload } from "@supabase/supabase-js";
import { isLiveOp, type LiveChange, type LiveTable, type LiveViewer } from "@/server/ports/live";

type Row = Record<string, unknown>;

/** A postgres_changes payload as the live port's change: ids only, like the local modes' events. */
function changeOf(table: LiveTable, payload: RealtimePostgresChangesPayload<Row>): LiveChange | undefined {
  // Deletes carry the primary key in `old` (not filtered by RLS, so nothing more is sent).
  const row: Row = payload.eventType === "DELETE" ? payload.old : payload.new;
  return typeof row.id === "string" && isLiveOp(payload.eventType) ? { table, op: payload.eventType, id: row.id } : undefined;
}

/**
 * The browser side of the live port in Supabase mode: Supabase Realtime's postgres_changes on the
 * user's cart lines and the orders they may read, and for admins new contact messages (Realtime
 * sends only rows RLS lets them read; deletes carry ids only). Loaded only in Supabase mode, so
 * the local modes never ship the SDK.
 */
export async function subscribeToRealtime(
  config: { url: string; anonKey: string; viewer: LiveViewer },
  onChange: (change: LiveChange) => void,
): Promise<() => void> {
  const { createBrowserClient } = await import("@supabase/ssr");
  const supabase = createBrowserClient(config.url, config.anonKey);
  const { id, role } = config.viewer;
  const forward = (table: LiveTable) => (payload: RealtimePostgresChangesPayload<Row>) => {
    const change = changeOf(table, payload);
    if (change) onChange(change);
  };
  let channel = supabase
    .channel(`shop-live-${id}`)
    .on<Row>("postgres_changes", { event: "*", schema: "public", table: "cart_items", filter: `user_id=eq.${id}` }, forward("cart_items"))
    .on<Row>("postgres_changes", { event: "*", schema: "public", table: "orders" }, forward("orders"));
  // RLS would send a customer none anyway; not asking spares Realtime the check per message.
  if (role === "admin") {
    channel = channel.on<Row>("postgres_changes", { event: "INSERT", schema: "public", table: "contact_messages" }, forward("contact_messages"));
  }
  channel.subscribe();
  return () => void supabase.removeChannel(channel);
}
