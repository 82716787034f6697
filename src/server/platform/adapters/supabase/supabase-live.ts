import type { LivePort } from "@/server/ports/live";

/**
 * Supabase mode: browsers subscribe to Supabase Realtime's postgres_changes themselves (RLS
 * filters what each one hears; src/components/live/), so the server streams nothing.
 */
export const supabaseLive: LivePort = {
  provider: "supabase",
  async *changes() {
    return;
  },
};
