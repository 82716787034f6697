import { runMode } from "@/env";
import type { LiveClientConfig } from "@/server/ports/live";
import { supabaseConfig } from "./process-config";

/** What the browser's live hook needs: Supabase Realtime's public settings, or the local SSE stream. */
export function liveClientConfig(): LiveClientConfig {
  if (runMode() !== "supabase") return { mode: "local" };
  const { url, anonKey } = supabaseConfig();
  return { mode: "supabase", url, anonKey };
}
