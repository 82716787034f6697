"use client";

import { useState } from "react";
import { messages } from "@/lib/messages";
import type { OrderStatus } from "@/lib/statuses";
import { api } from "@/trpc/react";
import { StatusMessage } from "@/components/ui/status-message";
import { useFlashMessage } from "@/components/ui/use-flash-message";
import { OrderCard } from "./order-card";
import { OrderFilters } from "./order-filters";
import { ProofDialog, type ProofToShow } from "./proof-dialog";

const m = messages.adminOrders;

/** Orders for admins: filters in the URL, pages of 50, counts per tab, live updates, status changes that save at once, a CSV export. */
export function OrderManagement({ status, search, day }: { status?: OrderStatus; search?: string; day?: string }) {
  const utils = api.useUtils();
  const orders = api.adminOrders.list.useInfiniteQuery({ status, search, day }, { getNextPageParam: (page) => page.nextCursor });
  const counts = api.adminOrders.counts.useQuery({ search, day });
  const shown = orders.data?.pages.flatMap((page) => page.orders) ?? [];
  const total = counts.data?.[status ?? "all"];
  const flash = useFlashMessage();
  const [proof, setProof] = useState<ProofToShow | null>(null);
  const update = api.adminOrders.updateStatus.useMutation({
    onSuccess: ({ message }) => flash.show(message, "success"),
    onError: () => flash.show(m.updateFailed, "error"),
    onSettled: () => utils.adminOrders.invalidate(),
  });

  return (
    <div className="space-y-6">
      <OrderFilters status={status} search={search} day={day} counts={counts.data} />
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
            <OrderCard
              key={order.id}
              order={order}
              saving={update.isPending}
              onStatusChange={(next) => update.mutate({ id: order.id, status: next })}
              onShowProof={setProof}
            />
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

      {proof ? <ProofDialog key={proof.url} proof={proof} onClose={() => setProof(null)} /> : null}
    </div>
  );
}
