import type { UserRole } from "@/lib/statuses";
/** The tables whose changes reach live views (each is in the supabase_realtime publication too). */
export const LIVE_TABLES = ["orders", "cart_items", "contact_messages", "low_stock_notices", "quote_requests"] as const;
export type LiveTable = (typeof LIVE_TABLES)[number];

export const LIVE_OPS = ["INSERT", "UPDATE", "DELETE"] as const;

/** A change to a row that live views care about (ids only: clients refetch what they show). */
export interface LiveChange {
  table: LiveTable;
  op: (typeof LIVE_OPS)[number];
  id: string;
}

/** Whether `value` names a live table (for parsing what a trigger or Realtime sends). */
export function isLiveTable(value: unknown): value is LiveTable {
  return LIVE_TABLES.some((table) => table === value);
}

/** Whether `value` names a row operation. */
export function isLiveOp(value: unknown): value is LiveChange["op"] {
  return LIVE_OPS.some((op) => op === value);
}

/** Who is listening: their own rows; admins also every order, every quote request, every new contact message and every low-stock notice. */
export interface LiveViewer {
  id: string;
  role: UserRole;
}

/**
 * Live updates (docs/architecture.md#ports-and-the-platform, #live-updates). Local modes: the server forwards database notifications
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
