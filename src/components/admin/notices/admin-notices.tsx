"use client";

import { Link } from "@/components/ui/link";
import { usePathname } from "next/navigation";
import { useCallback, useEffect, useRef, useState } from "react";
import { MAX_NOTICE_TOASTS, NOTICE_TOAST_MS } from "@/lib/constants";
import { messages } from "@/lib/messages";
import { formatSlot } from "@/lib/days";
import { formatRand } from "@/lib/money";
import { api } from "@/trpc/react";
import { playNoticeChime, useNoticeSound } from "./notice-sound";
import { NOTICE_PAGES, noticePageOf, onArrival, useUnseenNotices, viewingNoticePage, type Arrival, type ToastKind } from "./unseen-notices";

const m = messages.adminNotices;

interface Toast {
  key: string;
  kind: ToastKind;
  text: string;
}

/** Where each toast's link goes: low stock to the dashboard, where stock is shown. */
const TOAST_PAGES: Record<ToastKind, string> = { ...NOTICE_PAGES, stock: "/admin/dashboard", quote: "/admin/quotes" };
const TOAST_LINKS: Record<ToastKind, string> = { orders: m.openOrders, messages: m.openMessages, stock: m.openStock, quote: m.openQuotes };
const UNNAMED: Record<ToastKind, string> = { orders: m.newOrderUnnamed, messages: m.newMessageUnnamed, stock: m.lowStockUnnamed, quote: m.newQuoteUnnamed };

type Utils = ReturnType<typeof api.useUtils>;

/** What a toast says: the live event has the id only, so the order, sender or variant is read first. */
async function describe(utils: Utils, arrival: Arrival): Promise<string> {
  try {
    if (arrival.kind === "orders") {
      const order = await utils.adminOrders.notice.fetch({ id: arrival.id });
      return order.booking
        ? m.newBooking(order.booking.service, formatSlot(order.booking.startsAt), order.reference, order.customerName)
        : m.newOrder(order.reference, order.customerName, formatRand(order.total));
    }
    if (arrival.kind === "quote") return m.newQuote((await utils.adminQuotes.get.fetch({ requestId: arrival.id })).customerName);
    if (arrival.kind === "stock") {
      const notice = await utils.stockNotices.lowStockNotice.fetch({ id: arrival.id });
      return m.lowStock(notice.name, notice.stock);
    }
    return m.newMessage((await utils.contact.notice.fetch({ id: arrival.id })).name);
  } catch {
    // Gone again, or the network failed: still say that something came in.
    return UNNAMED[arrival.kind];
  }
}

const COUNT_PREFIX = /^\(\d+\) /;

/**
 * "(2) Orders · Our World Services" while `count` is above 0; the page's own title again after.
 * Next.js sets each page's title as the admin moves between pages, so the count is put back
 * whenever the title changes.
 */
function useTitleCount(count: number) {
  useEffect(() => {
    const apply = () => {
      const base = document.title.replace(COUNT_PREFIX, "");
      const wanted = count > 0 ? `(${count}) ${base}` : base;
      if (document.title !== wanted) document.title = wanted;
    };
    apply();
    if (count === 0) return;
    const observer = new MutationObserver(apply);
    observer.observe(document.head, { childList: true, subtree: true, characterData: true });
    return () => observer.disconnect();
  }, [count]);
  // Leaving the admin pages: the next page's title comes without the count.
  useEffect(
    () => () => {
      document.title = document.title.replace(COUNT_PREFIX, "");
    },
    [],
  );
}

/**
 * Admins' notices of new orders, messages and low stock on every admin page (issue 17 item 5, issue 37): a toast per
 * arrival, the unseen count in the tab's title, the chime if turned on; the counts on the admin
 * navigation come from the same store (unseen-notices.ts). Changes arrive through the page's one
 * live subscription (LiveUpdates in the header), never a second one.
 */
export function AdminNotices() {
  const pathname = usePathname();
  const page = noticePageOf(pathname);
  const unseen = useUnseenNotices();
  const sound = useNoticeSound();
  const utils = api.useUtils();
  const [toasts, setToasts] = useState<Toast[]>([]);

  // Opening Orders or Messages is seeing what arrived there; leaving the admin pages ends it.
  useEffect(() => viewingNoticePage(page), [page]);
  useEffect(() => () => viewingNoticePage(null), []);

  const soundOn = useRef(sound);
  useEffect(() => {
    soundOn.current = sound;
  });

  useEffect(
    () =>
      onArrival((arrival) => {
        void describe(utils, arrival).then((text) => {
          const key = `${arrival.kind}:${arrival.id}`;
          setToasts((shown) => (shown.some((toast) => toast.key === key) ? shown : [...shown, { key, kind: arrival.kind, text }].slice(-MAX_NOTICE_TOASTS)));
          if (soundOn.current) playNoticeChime();
        });
      }),
    [utils],
  );

  useTitleCount(unseen.orders.length + unseen.messages.length);

  const dismiss = useCallback((key: string) => setToasts((shown) => shown.filter((toast) => toast.key !== key)), []);

  return (
    // Fixed over the page, so a toast never moves the content; polite, so it waits for a pause.
    <ol
      aria-live="polite"
      aria-label={m.region}
      className="pointer-events-none fixed inset-x-4 bottom-4 z-50 flex flex-col gap-2 sm:inset-x-auto sm:right-6 sm:bottom-6 sm:w-96"
    >
      {toasts.map((toast) => (
        <NoticeToast key={toast.key} toast={toast} onPage={page === toast.kind} onDismiss={dismiss} />
      ))}
    </ol>
  );
}

/** One notice: hides itself after NOTICE_TOAST_MS, but not while the pointer or focus is on it. */
function NoticeToast({ toast, onPage, onDismiss }: { toast: Toast; onPage: boolean; onDismiss: (key: string) => void }) {
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const hide = useRef(() => onDismiss(toast.key));
  useEffect(() => {
    hide.current = () => onDismiss(toast.key);
  });
  const wait = useCallback(() => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => hide.current(), NOTICE_TOAST_MS);
  }, []);
  const pause = useCallback(() => clearTimeout(timer.current), []);
  useEffect(() => {
    wait();
    return pause;
  }, [wait, pause]);

  return (
    <li
      data-testid="admin-notice"
      onMouseEnter={pause}
      onMouseLeave={wait}
      onFocus={pause}
      onBlur={wait}
      className="pointer-events-auto flex items-start gap-3 rounded-xl border border-l-4 border-line border-l-accent-500 bg-white p-4 shadow-lg motion-safe:animate-[fade-in_200ms_ease-out]"
    >
      <span aria-hidden="true" className="mt-0.5 flex h-8 w-8 shrink-0 items-center justify-center rounded-full bg-brand-50 text-brand-700">
        <svg viewBox="0 0 24 24" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
          {toast.kind === "orders" ? (
            <path d="M6 7h12l-1 13H7L6 7zM9 7a3 3 0 0 1 6 0" />
          ) : toast.kind === "stock" ? (
            <path d="M4 8l8-4 8 4v8l-8 4-8-4zM4 8l8 4 8-4M12 12v8" />
          ) : (
            <path d="M4 6h16v12H4zM4 7l8 6 8-6" />
          )}
        </svg>
      </span>
      <div className="min-w-0 flex-1">
        <p className="text-sm font-semibold break-words text-ink">{toast.text}</p>
        {onPage ? null : (
          <Link
            href={TOAST_PAGES[toast.kind]}
            onClick={() => hide.current()}
            className="mt-1 inline-block text-sm font-semibold text-brand-700 hover:underline"
          >
            {TOAST_LINKS[toast.kind]}
          </Link>
        )}
      </div>
      <button
        type="button"
        aria-label={m.dismiss}
        onClick={() => hide.current()}
        className="-m-1 shrink-0 rounded-lg p-1.5 text-muted hover:bg-brand-50 hover:text-ink"
      >
        <svg aria-hidden="true" viewBox="0 0 24 24" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
          <path d="M6 6l12 12M18 6L6 18" />
        </svg>
      </button>
    </li>
  );
}
