import pg from "pg";
import type { ChangeEvent, FakeRealtime } from "../fake-realtime";

/** The tables the migrations add to the `supabase_realtime` publication. */
const PUBLISHED = new Set(["orders", "cart_items", "contact_messages", "low_stock_notices", "quote_requests"]);

/**
 * Turns the database's changes into Realtime's postgres_changes: it LISTENs on `shop_changes`,
 * the channel the migrations' triggers on exactly the published tables already notify (ids only,
 * after commit), and reads each row as it is after the change, which is what Realtime sends from
 * the WAL. DELETE carries the primary key alone, as with the default replica identity.
 *
 * Not modelled: Realtime's per-subscriber RLS check. fake-realtime's emitChange sends a change to
 * every channel whose binding (table, event, filter) matches; the shop's channels filter cart
 * lines by user and only refetch on an event, so an extra order event costs a refetch, nothing more.
 */
export async function bridgeDatabaseChanges(databaseUrl: string, realtime: FakeRealtime): Promise<{ close(): Promise<void> }> {
  const listener = new pg.Client({ connectionString: databaseUrl });
  const reader = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  await listener.connect();
  let closed = false;
  reader.on("error", (error) => console.error("[fake-supabase] realtime bridge connection lost:", error.message));
  // Losing the LISTEN connection means changes stop reaching browsers: say so loudly, never crash.
  listener.on("error", (error) => {
    if (!closed) console.error("[fake-supabase] realtime bridge stopped listening:", error.message);
  });

  listener.on("notification", (message) => {
    if (message.channel !== "shop_changes" || !message.payload) return;
    void forward(message.payload).catch((error: unknown) => {
      if (!closed) console.error("[fake-supabase] realtime bridge:", error);
    });
  });

  async function forward(payload: string) {
    const change = JSON.parse(payload) as { table?: string; op?: string; id?: string; user_id?: string | null };
    const { table, op, id } = change;
    if (!table || !PUBLISHED.has(table) || !id || (op !== "INSERT" && op !== "UPDATE" && op !== "DELETE")) return;
    const key = { id };
    if (op === "DELETE") {
      realtime.emitChange({ table, eventType: op, old: key });
      return;
    }
    // The table name comes from the allow-list above, never from the payload as such.
    const { rows } = await reader.query<{ row: Record<string, unknown> }>(`select to_jsonb(t) as row from public.${table} t where id = $1`, [id]);
    const row = rows[0]?.row ?? { ...key, ...(change.user_id ? { user_id: change.user_id } : {}) };
    const event: ChangeEvent = op === "INSERT" ? { table, eventType: op, new: row } : { table, eventType: op, new: row, old: key };
    realtime.emitChange(event);
  }

  await listener.query("listen shop_changes");
  return {
    async close() {
      closed = true;
      await listener.end().catch(() => {});
      await reader.end().catch(() => {});
    },
  };
}
