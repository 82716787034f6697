import { SHOP_CHANGES_CHANNEL } from "@/server/db/channels";
import type { ShopDatabase } from "@/server/db/database";
import { isLiveOp, isLiveTable, type LiveChange, type LivePort, type LiveViewer } from "@/server/ports/live";

/** A change as the database trigger reports it: whose row it is decides who hears of it (never sent on). */
export interface ChangeEvent extends LiveChange {
  userId: string | null;
}

export const CHANGES_CHANNEL = SHOP_CHANGES_CHANNEL;

type Listener = (event: ChangeEvent) => void;

function parse(payload: string): ChangeEvent | undefined {
  try {
    const raw = JSON.parse(payload) as { table?: unknown; op?: unknown; id?: unknown; user_id?: unknown };
    if (!isLiveTable(raw.table) || !isLiveOp(raw.op) || typeof raw.id !== "string") return undefined;
    return { table: raw.table, op: raw.op, id: raw.id, userId: typeof raw.user_id === "string" ? raw.user_id : null };
  } catch {
    return undefined;
  }
}

/**
 * One LISTEN per process on the triggers' channel, fanned out to every subscriber in memory
 * (docs/architecture.md#live-updates, local modes). Subscribers decide what they may see.
 */
export class LiveHub {
  readonly #listeners = new Set<Listener>();
  #listening: Promise<unknown> | undefined;

  constructor(private readonly database: ShopDatabase) {}

  async subscribe(listener: Listener): Promise<() => void> {
    this.#listening ??= this.database.listen(CHANGES_CHANNEL, (payload) => {
      const event = parse(payload);
      if (!event) return;
      for (const each of this.#listeners) each(event);
    });
    await this.#listening;
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}

const hubs = new WeakMap<ShopDatabase, LiveHub>();

/** The hub of a database (one per process and database). */
export function liveHubFor(database: ShopDatabase): LiveHub {
  let hub = hubs.get(database);
  if (!hub) {
    hub = new LiveHub(database);
    hubs.set(database, hub);
  }
  return hub;
}

/**
 * Whether `viewer` may hear of `event`: their own orders, cart lines and quote requests; admins also every order and quote request,
 * every contact message and every low-stock notice. Contact messages (and low-stock notices) go to admins alone, whoever sent them (their
 * trigger sends no user_id, and the sender is told on the contact page already), as RLS lets
 * only admins read them.
 */
export function mayHear(viewer: LiveViewer, event: ChangeEvent): boolean {
  if (event.table === "contact_messages" || event.table === "low_stock_notices") return viewer.role === "admin";
  if (event.userId === viewer.id) return true;
  return (event.table === "orders" || event.table === "quote_requests") && viewer.role === "admin";
}

/** Turns listener callbacks into an async iterable that ends when `signal` aborts. */
export async function* changesFor(
  hub: LiveHub,
  viewer: LiveViewer,
  signal: AbortSignal | undefined,
): AsyncGenerator<LiveChange> {
  const queue: ChangeEvent[] = [];
  let wake: (() => void) | undefined;
  const unsubscribe = await hub.subscribe((event) => {
    if (!mayHear(viewer, event)) return;
    queue.push(event);
    wake?.();
  });
  const aborted = new Promise<void>((resolve) => signal?.addEventListener("abort", () => resolve(), { once: true }));
  try {
    while (!signal?.aborted) {
      const event = queue.shift();
      if (event) {
        yield { table: event.table, op: event.op, id: event.id };
        continue;
      }
      await Promise.race([new Promise<void>((resolve) => (wake = resolve)), aborted]);
      wake = undefined;
    }
  } finally {
    unsubscribe();
  }
}

/** The local live port: the database's notifications, filtered per viewer, as they happen. */
export function createLocalLive(database: ShopDatabase): LivePort {
  return { provider: "local", changes: (viewer, signal) => changesFor(liveHubFor(database), viewer, signal) };
}
