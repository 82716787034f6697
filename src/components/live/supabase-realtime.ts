import type { LiveChange } from "@/server/ports/live";

/**
 * The browser side of the live port in Supabase mode: Supabase Realtime's postgres_changes on the
 * user's cart lines and the orders they may read (Realtime sends only rows RLS lets them read;
 * deletes carry ids only). Loaded only in Supabase mode, so the local modes never ship the SDK.
 */
export async function subscribeToRealtime(
  config: { url: string; anonKey: string; userId: string },
  onChange: (table: LiveChange["table"]) => void,
): Promise<() => void> {
  const { createBrowserClient } = await import("@supabase/ssr");
  const supabase = createBrowserClient(config.url, config.anonKey);
  const channel = supabase
    .channel(`shop-live-${config.userId}`)
    .on("postgres_changes", { event: "*", schema: "public", table: "cart_items", filter: `user_id=eq.${config.userId}` }, () => onChange("cart_items"))
    .on("postgres_changes", { event: "*", schema: "public", table: "orders" }, () => onChange("orders"))
    .subscribe();
  return () => void supabase.removeChannel(channel);
}
