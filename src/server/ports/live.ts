/** A change to a row that live views care about (ids only: clients refetch what they show). */
export interface LiveChange {
  table: "orders" | "cart_items";
  op: "INSERT" | "UPDATE" | "DELETE";
  id: string;
}

/** Who is listening: their own rows; admins also every order. */
export interface LiveViewer {
  id: string;
  role: "user" | "admin";
}

/**
 * Live updates (ARCHITECTURE §3, §7). Local modes: the server forwards database notifications
 * over a tRPC subscription (SSE). Supabase mode: the browser subscribes to Supabase Realtime
 * itself, so the server's stream ends at once. Browsers learn which through `clientConfig`.
 */
export interface LivePort {
  readonly provider: "local" | "supabase";
  /** The viewer's changes until `signal` aborts. */
  changes(viewer: LiveViewer, signal: AbortSignal | undefined): AsyncIterable<LiveChange>;
}

/** What the browser's live hook needs to know (never a secret: the anon key is public). */
export type LiveClientConfig = { mode: "local" } | { mode: "supabase"; url: string; anonKey: string };
