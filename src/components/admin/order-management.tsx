"use client";

import Link from "next/link";
import { useState } from "react";
import { formatDay, shopDay } from "@/lib/days";
import { formatRand } from "@/lib/money";
import { messages } from "@/lib/messages";
import { ORDER_STATUSES, type OrderStatusValue } from "@/server/orders/schemas";
import { api } from "@/trpc/react";
import { StatusMessage } from "@/components/ui/status-message";
import { useFlashMessage } from "@/components/ui/use-flash-message";
import { FulfilmentSummary } from "@/components/orders/fulfilment-summary";
import { OnlinePaymentBadge, OrderPayments } from "./order-payments";
import { InvoiceLinks } from "@/components/invoices/invoice-links";

const m = messages.adminOrders;
const dateFormat = new Intl.DateTimeFormat("en-ZA", { dateStyle: "medium", timeStyle: "short", timeZone: "Africa/Johannesburg" });

const BADGE: Record<OrderStatusValue, string> = {
  pending_payment: "bg-amber-100 text-amber-900",
  pending_delivery: "bg-sky-100 text-sky-900",
  complete: "bg-green-100 text-green-900",
  cancelled: "bg-slate-200 text-slate-800",
};

function filterParams(status: OrderStatusValue | undefined, search: string | undefined, day?: string) {
  const params = new URLSearchParams();
  if (status) params.set("status", status);
  if (search) params.set("q", search);
  if (day) params.set("day", day);
  return params.size ? `?${params}` : "";
}

/** Orders for admins: filters in the URL, pages of 50, counts per tab, live updates, status changes that save at once, a CSV export. */
export function OrderManagement({ status, search, day }: { status?: OrderStatusValue; search?: string; day?: string }) {
  const utils = api.useUtils();
  const orders = api.adminOrders.list.useInfiniteQuery({ status, search, day }, { getNextPageParam: (page) => page.nextCursor });
  const counts = api.adminOrders.counts.useQuery({ search, day });
  const tomorrow = shopDay(1);
  const shown = orders.data?.pages.flatMap((page) => page.orders) ?? [];
  const total = counts.data?.[status ?? "all"];
  const flash = useFlashMessage();
  const [proof, setProof] = useState<{ url: string; reference: string; kind: "image" | "pdf"; preview: string | null } | null>(null);
  const update = api.adminOrders.updateStatus.useMutation({
    onSuccess: ({ message }) => flash.show(message, "success"),
    onError: () => flash.show(m.updateFailed, "error"),
    onSettled: () => utils.adminOrders.invalidate(),
  });

  return (
    <div className="space-y-6">
      <nav aria-label="Filter orders by status">
        <ul className="inline-flex flex-wrap gap-1 rounded-xl border border-line bg-white p-1">
          {[undefined, ...ORDER_STATUSES].map((value) => (
            <li key={value ?? "all"}>
              <Link
                href={`/admin/orders${filterParams(value, search, day)}`}
                aria-current={value === status ? "page" : undefined}
                className={`flex items-center gap-2 rounded-lg px-3 py-1.5 text-sm font-medium ${value === status ? "bg-brand-700 text-white" : "text-ink hover:bg-brand-50"}`}
              >
                {value ? messages.adminStatus[value] : "All"}
                {/* Read out as "Complete 12"; the flex gap does the spacing on screen. */}
                {counts.data ? " " : null}
                {counts.data ? (
                  <span
                    data-testid={`count-${value ?? "all"}`}
                    className={`tabular rounded-full px-2 text-xs ${value === status ? "bg-white/20 text-white" : "bg-brand-50 text-brand-800"}`}
                  >
                    {counts.data[value ?? "all"]}
                  </span>
                ) : null}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <form action="/admin/orders" method="get" role="search" className="flex w-full max-w-xl gap-2">
          {status ? <input type="hidden" name="status" value={status} /> : null}
          {day ? <input type="hidden" name="day" value={day} /> : null}
          <label htmlFor="order-search" className="sr-only">
            {m.searchLabel}
          </label>
          <input
            id="order-search"
            name="q"
            type="search"
            defaultValue={search}
            maxLength={100}
            placeholder={m.searchPlaceholder}
            className="block w-full rounded-xl border border-line bg-white px-4 py-2"
          />
          <button type="submit" className="rounded-xl bg-brand-700 px-4 text-sm font-semibold text-white">
            Search
          </button>
        </form>
        {/* A plain link: the route answers with a file to save, not a page to render. */}
        <a
          href={`/admin/orders/export${filterParams(status, search, day)}`}
          download
          className="rounded-xl border border-line bg-white px-4 py-2 text-sm font-semibold text-brand-800 hover:bg-brand-50"
        >
          {m.exportCsv}
        </a>
      </div>
      {/* "What do we deliver tomorrow?": the delivery or collection day, and its printable run sheet. */}
      <form action="/admin/orders" method="get" className="flex flex-wrap items-end gap-2" aria-label="Filter orders by day">
        {status ? <input type="hidden" name="status" value={status} /> : null}
        {search ? <input type="hidden" name="q" value={search} /> : null}
        <label className="text-sm font-medium">
          <span className="mb-1 block">Delivery or collection day</span>
          <input type="date" name="day" defaultValue={day} className="rounded-xl border border-line bg-white px-3 py-2" />
        </label>
        <button type="submit" className="rounded-xl bg-brand-700 px-4 py-2 text-sm font-semibold text-white">
          Show day
        </button>
        <Link href={`/admin/orders${filterParams(status, search, tomorrow)}`} aria-current={day === tomorrow ? "page" : undefined} className="rounded-xl border border-line bg-white px-4 py-2 text-sm font-semibold text-brand-800 hover:bg-brand-50">
          Tomorrow
        </Link>
        {day ? (
          <>
            <Link href={`/admin/orders${filterParams(status, search)}`} className="rounded-xl px-3 py-2 text-sm font-medium text-brand-800 underline">
              Any day
            </Link>
            <Link href={`/admin/orders/run-sheet?day=${day}`} className="rounded-xl border border-line bg-white px-4 py-2 text-sm font-semibold text-brand-800 hover:bg-brand-50">
              Run sheet for {formatDay(day)}
            </Link>
          </>
        ) : null}
      </form>
      <StatusMessage message={flash.message} />

      {orders.isPending ? (
        <p role="status">{m.loading}</p>
      ) : !orders.data ? (
        <p role="alert" className="text-danger">
          {m.loadFailed}
        </p>
      ) : shown.length === 0 ? (
        <p className="text-muted">{m.noneWithStatus(status ? messages.adminStatus[status] : "All")}</p>
      ) : (
        <ul className="grid gap-4 lg:grid-cols-2" aria-label="Orders">
          {shown.map((order) => (
            <li key={order.id} className="space-y-3 rounded-2xl border border-line bg-white p-5" data-testid="order-card">
              <div className="flex flex-wrap items-start justify-between gap-2">
                <div>
                  <p className="tabular font-bold">{order.reference}</p>
                  <p className="text-xs text-muted">ID {order.id}</p>
                </div>
                <div className="flex flex-wrap justify-end gap-1.5">
                  <OnlinePaymentBadge order={order} />
                  <span className={`rounded-full px-2.5 py-1 text-xs font-semibold ${BADGE[order.status]}`}>{messages.adminStatus[order.status]}</span>
                </div>
              </div>
              <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
                <dt className="text-muted">Customer</dt>
                <dd>{order.customerName}</dd>
                <dt className="text-muted">Email</dt>
                <dd className="break-all">{order.customerEmail}</dd>
                <dt className="text-muted">Total</dt>
                <dd className="tabular font-semibold">{formatRand(order.total)}</dd>
                <dt className="text-muted">Placed</dt>
                <dd>{dateFormat.format(order.createdAt)}</dd>
              </dl>
              <FulfilmentSummary fulfilment={order.fulfilment} />
              <ul className="text-sm" aria-label={`Items of ${order.reference}`}>
                {order.items.map((item, index) => (
                  <li key={index}>
                    {item.name} x {item.quantity} ({formatRand(item.unitPrice)})
                  </li>
                ))}
              </ul>
              <OrderPayments order={order} />
              <InvoiceLinks orderId={order.id} status={order.status} />
              {order.proofUrl ? (
                <button
                  type="button"
                  onClick={() => setProof({ url: order.proofUrl!, reference: order.reference, kind: order.proofKind ?? "image", preview: order.proofPreviewUrl })}
                  className="block"
                >
                  {order.proofKind === "pdf" && !order.proofPreviewUrl ? (
                    <span className="flex h-24 w-20 items-center justify-center rounded-lg border border-line bg-surface text-sm font-semibold text-muted">
                      PDF<span className="sr-only"> proof of payment for {order.reference}</span>
                    </span>
                  ) : (
                    /* eslint-disable-next-line @next/next/no-img-element -- a private, access-checked file */
                    <img
                      src={order.proofPreviewUrl ?? order.proofUrl}
                      alt={`Proof of payment for ${order.reference}${order.proofKind === "pdf" ? " (PDF, first page)" : ""}`}
                      className="h-24 w-auto rounded-lg border border-line object-cover"
                    />
                  )}
                </button>
              ) : null}
              <div>
                <label htmlFor={`status-${order.id}`} className="mb-1 block text-sm font-medium">
                  Status
                </label>
                <select
                  id={`status-${order.id}`}
                  value={order.status}
                  disabled={update.isPending}
                  onChange={(event) => update.mutate({ id: order.id, status: event.target.value as OrderStatusValue })}
                  className="rounded-xl border border-line bg-white px-3 py-2"
                >
                  {ORDER_STATUSES.map((value) => (
                    <option key={value} value={value}>
                      {messages.adminStatus[value]}
                    </option>
                  ))}
                </select>
              </div>
              {order.history.length > 1 ? (
                <details className="text-sm">
                  <summary className="cursor-pointer text-muted">Status history</summary>
                  <ol className="mt-2 space-y-1">
                    {order.history.map((event, index) => (
                      <li key={index}>
                        {dateFormat.format(event.at)}: {event.from ? `${messages.adminStatus[event.from]} → ` : ""}
                        {messages.adminStatus[event.to]} {event.reason ? (messages.payments.isPaymentReason(event.reason) ? `: ${event.reason}` : m.byShop(event.reason)) : event.by ? `by ${event.by}` : ""}
                      </li>
                    ))}
                  </ol>
                </details>
              ) : null}
            </li>
          ))}
        </ul>
      )}

      {shown.length > 0 ? (
        <div className="flex flex-col items-center gap-3">
          {total !== undefined ? <p className="text-sm text-muted">{m.showing(shown.length, Math.max(total, shown.length))}</p> : null}
          {orders.isFetchNextPageError ? (
            <p role="alert" className="text-sm text-danger">
              {m.loadFailed}
            </p>
          ) : null}
          {orders.hasNextPage ? (
            <button
              type="button"
              onClick={() => void orders.fetchNextPage()}
              disabled={orders.isFetchingNextPage}
              className="rounded-xl border border-line bg-white px-5 py-2 text-sm font-semibold text-brand-800 hover:bg-brand-50 disabled:cursor-wait disabled:opacity-60"
            >
              {orders.isFetchingNextPage ? m.loadingMore : m.loadMore}
            </button>
          ) : null}
        </div>
      ) : null}

      {proof ? (
        <div
          role="dialog"
          aria-modal="true"
          aria-label={`Proof of payment for ${proof.reference}`}
          className="fixed inset-0 z-50 flex items-center justify-center bg-black/70 p-4"
          onClick={() => setProof(null)}
          onKeyDown={(event) => event.key === "Escape" && setProof(null)}
        >
          <div className="max-h-full max-w-3xl space-y-3 rounded-2xl bg-white p-4" onClick={(event) => event.stopPropagation()}>
            {proof.kind === "image" || proof.preview ? (
              /* eslint-disable-next-line @next/next/no-img-element -- a private, access-checked file */
              <img
                src={proof.kind === "pdf" ? proof.preview! : proof.url}
                alt={`Proof of payment for ${proof.reference}${proof.kind === "pdf" ? " (PDF, first page)" : ""}`}
                className="max-h-[75vh] w-auto"
              />
            ) : (
              <p className="text-sm text-muted">This proof of payment is a PDF. Open it to view it.</p>
            )}
            <div className="flex gap-3">
              <button type="button" autoFocus onClick={() => setProof(null)} className="rounded-xl border border-line px-4 py-2 text-sm font-medium">
                Close
              </button>
              {proof.kind === "pdf" ? (
                <a href={proof.url} target="_blank" rel="noopener noreferrer" className="rounded-xl bg-brand-700 px-4 py-2 text-sm font-semibold text-white">
                  Open<span className="sr-only"> the PDF proof of payment for {proof.reference}</span>
                </a>
              ) : null}
            </div>
          </div>
        </div>
      ) : null}
    </div>
  );
}
