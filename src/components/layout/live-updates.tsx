"use client";

import { useEffect } from "react";
import { api } from "@/trpc/react";

export type LiveConfig =
  | { mode: "local" }
  | { mode: "supabase"; url: string; anonKey: string };

type Table = "orders" | "cart_items";

/** Refreshes whatever shows the changed table: the one hook every live view relies on. */
function useInvalidate() {
  const utils = api.useUtils();
  return (table: Table) => {
    if (table === "cart_items") {
      void utils.cart.invalidate();
    } else {
      void utils.orders.invalidate();
      void utils.adminOrders.invalidate();
    }
  };
}

function LocalLiveUpdates() {
  const invalidate = useInvalidate();
  api.live.changes.useSubscription(undefined, { onData: (event) => invalidate(event.table) });
  return null;
}

function SupabaseLiveUpdates({ url, anonKey, userId }: { url: string; anonKey: string; userId: string }) {
  const invalidate = useInvalidate();
  useEffect(() => {
    let stop: (() => void) | undefined;
    let cancelled = false;
    // Loaded only in Supabase mode, so the local modes never ship the Supabase client.
    void import("@supabase/ssr").then(({ createBrowserClient }) => {
      if (cancelled) return;
      const supabase = createBrowserClient(url, anonKey);
      // Realtime sends only the rows RLS lets this user read (deletes carry ids only).
      const channel = supabase
        .channel(`shop-live-${userId}`)
        .on("postgres_changes", { event: "*", schema: "public", table: "cart_items", filter: `user_id=eq.${userId}` }, () => invalidate("cart_items"))
        .on("postgres_changes", { event: "*", schema: "public", table: "orders" }, () => invalidate("orders"))
        .subscribe();
      stop = () => void supabase.removeChannel(channel);
    });
    return () => {
      cancelled = true;
      stop?.();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- one channel per user and project
  }, [url, anonKey, userId]);
  return null;
}

/** Keeps the signed-in user's cart and orders current in every tab and device, in both modes. */
export function LiveUpdates({ config, userId }: { config: LiveConfig; userId: string }) {
  return config.mode === "supabase" ? <SupabaseLiveUpdates url={config.url} anonKey={config.anonKey} userId={userId} /> : <LocalLiveUpdates />;
}
