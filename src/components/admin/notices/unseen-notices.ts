import { useSyncExternalStore } from "react";
import type { LiveChange } from "@/server/ports/live";

/** What admins are told of and count as it arrives: a new order, a new contact message. */
export type NoticeKind = "orders" | "messages";
/** What a toast may be about: those, a variant come to its low-stock mark, and a new quote request (told, not counted). */
export type ToastKind = NoticeKind | "stock" | "quote";

/** The admin page where each kind is seen; opening it clears its count. */
export const NOTICE_PAGES: Record<NoticeKind, string> = { orders: "/admin/orders", messages: "/admin/messages" };

/** One new order, message or low-stock crossing, by id (the live event's; what it says is fetched when shown). */
export interface Arrival {
  kind: ToastKind;
  id: string;
}

/** The ids of each kind that arrived since the admin last opened its page. */
export type Unseen = Readonly<Record<NoticeKind, readonly string[]>>;

/*
 * Unseen ids live in this tab's sessionStorage, not in the database: the notices are about what
 * arrives while an admin has the shop open, and the Orders and Messages pages themselves show
 * every order and message (and which are unread), so a per-admin "seen" column would store a
 * second truth for a nicety and write on every visit. sessionStorage keeps the counts across
 * reloads and page loads in the tab, and drops them with it; another tab counts for itself.
 */
const STORAGE_KEY = "shop:admin-unseen";
const EMPTY: Unseen = { orders: [], messages: [] };
/** Bounds what the tab stores; the badge shows "99+" long before. */
const MAX_IDS = 100;

let unseen: Unseen | undefined;
let viewing: NoticeKind | null = null;
const listeners = new Set<() => void>();
const arrivalListeners = new Set<(arrival: Arrival) => void>();

function ids(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((id): id is string => typeof id === "string").slice(-MAX_IDS) : [];
}

function current(): Unseen {
  if (unseen) return unseen;
  try {
    const stored: unknown = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? "null");
    const record = stored && typeof stored === "object" ? (stored as Record<string, unknown>) : {};
    unseen = { orders: ids(record.orders), messages: ids(record.messages) };
  } catch {
    // Storage refused (privacy mode) or a value from an older build: start counting afresh.
    unseen = EMPTY;
  }
  return unseen;
}

function save(next: Unseen) {
  unseen = next;
  try {
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify(next));
  } catch {
    // Counting still works for this page without storage; it is just not kept across loads.
  }
  for (const listener of listeners) listener();
}

/** The notice a live change makes, if any: inserts of orders, contact messages, low-stock notices and quote requests. */
export function arrivalOf(change: LiveChange): Arrival | undefined {
  if (change.op !== "INSERT") return undefined;
  if (change.table === "orders") return { kind: "orders", id: change.id };
  if (change.table === "contact_messages") return { kind: "messages", id: change.id };
  if (change.table === "low_stock_notices") return { kind: "stock", id: change.id };
  if (change.table === "quote_requests") return { kind: "quote", id: change.id };
  return undefined;
}

/**
 * An admin's live change (LiveUpdates calls this for admins on every page): counts a new order
 * or message as unseen unless the admin is on its page, where it shows up in the list already,
 * and tells the notices component, which toasts it on admin pages.
 */
export function noticeLiveChange(change: LiveChange) {
  const arrival = arrivalOf(change);
  if (!arrival) return;
  const known = current();
  // Low stock is toasted only: the dashboard's low and sold-out filter is where it stays seen.
  // Quote requests likewise: the quote inbox lists them, newest change first.
  const kind = arrival.kind === "stock" || arrival.kind === "quote" ? null : arrival.kind;
  if (kind && viewing !== kind && !known[kind].includes(arrival.id)) {
    save({ ...known, [kind]: [...known[kind], arrival.id].slice(-MAX_IDS) });
  }
  for (const listener of arrivalListeners) listener(arrival);
}

/** The admin is on `kind`'s page (or none): what is unseen of it is seen now, and so is what arrives. */
export function viewingNoticePage(kind: NoticeKind | null) {
  viewing = kind;
  if (kind && current()[kind].length > 0) save({ ...current(), [kind]: [] });
}

/** Calls `listener` on every new order or message as it arrives, until the returned function runs. */
export function onArrival(listener: (arrival: Arrival) => void): () => void {
  arrivalListeners.add(listener);
  return () => arrivalListeners.delete(listener);
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** What is unseen, kept current; nothing on the server (the counts live in the browser tab). */
export function useUnseenNotices(): Unseen {
  return useSyncExternalStore(subscribe, current, () => EMPTY);
}

/** The notice page a path is on, if any. */
export function noticePageOf(pathname: string): NoticeKind | null {
  if (pathname.startsWith(NOTICE_PAGES.orders)) return "orders";
  if (pathname.startsWith(NOTICE_PAGES.messages)) return "messages";
  return null;
}
