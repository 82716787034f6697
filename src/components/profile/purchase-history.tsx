"use client";

import { Link } from "@/components/ui/link";
import { FulfilmentSummary } from "@/components/orders/fulfilment-summary";
import { useEffect, useState } from "react";
import { formatRand2 } from "@/lib/money";
import { messages, orderPageMessages, purchaseHistoryMessages, quoteMessages } from "@/lib/messages";
import { orderPath } from "@/lib/order-paths";
import { api, type RouterOutputs } from "@/trpc/react";
import { Button } from "@/components/ui/button";
import { PayAgainButton } from "@/components/payments/pay-again-button";
import { InvoiceLinks } from "@/components/invoices/invoice-links";
import { formatDateTime } from "@/lib/days";

/** Why the shop itself set the order's current status (an unpaid order it cancelled), if it did. */
function shopReason(order: { status: string; history: { to: string; reason: string | null }[] }): string | null {
  const last = order.history.at(-1);
  // A payment's reason ("Paid by PayFast") is said by OnlinePayment.
  return last && last.to === order.status && last.reason && !messages.payments.isPaymentReason(last.reason) ? last.reason : null;
}

function ShopReason({ status, reason }: { status: keyof typeof messages.orderStatus; reason: string | null }) {
  return reason ? <p className="text-sm text-muted">{messages.profile.changedByShop(messages.orderStatus[status], reason)}</p> : null;
}

type OrderRow = RouterOutputs["orders"]["mine"][number];

/**
 * How the order was paid online, if it was; for an order placed with "Pay now" and still unpaid
 * (the customer left PayFast's page), the way to pay it now.
 */
function OnlinePayment({ order }: { order: OrderRow }) {
  const paid = order.payments.find((payment) => payment.outcome === "applied");
  const refundDue = order.payments.some((payment) => payment.outcome === "refund_due");
  return (
    <>
      {paid ? <p className="text-sm font-medium text-green-800" data-testid="paid-online">{messages.payments.paidBy(paid.provider)}</p> : null}
      {refundDue ? <p className="text-sm font-medium text-danger">{messages.payments.refundDue}</p> : null}
      {order.status === "pending_payment" && order.paymentMethod === "payfast" && !order.proofUrl && !paid ? (
        <div className="mt-2 flex flex-wrap items-center gap-3">
          <p className="text-sm text-muted">{messages.payments.awaitingOnline}</p>
          <PayAgainButton orderId={order.id} />
        </div>
      ) : null}
    </>
  );
}

/** How long "Loading..." may show before the customer is offered to try again (a request that never answers). */
const STALLED_MS = 15_000;

/** Whether `waiting` has been true for `ms` without a break. */
function useStalled(waiting: boolean, ms: number): boolean {
  const [stalled, setStalled] = useState(false);
  useEffect(() => {
    if (!waiting) return;
    const timer = setTimeout(() => setStalled(true), ms);
    return () => {
      clearTimeout(timer);
      setStalled(false);
    };
  }, [waiting, ms]);
  return waiting && stalled;
}

/**
 * Said instead of the orders when they cannot be loaded, with a way to ask again. The button
 * stays usable while a request is out: asking again replaces it (React Query cancels the old one).
 */
function HistoryFailed({ retrying, onRetry }: { retrying: boolean; onRetry: () => void }) {
  return (
    <div role="alert" className="space-y-3 rounded-2xl border border-red-200 bg-red-50 p-5">
      <p className="text-danger">{purchaseHistoryMessages.loadFailed}</p>
      <Button variant="outline" onClick={onRetry}>
        {retrying ? purchaseHistoryMessages.retrying : purchaseHistoryMessages.retry}
      </Button>
    </div>
  );
}

/** The user's real orders (live: a status change shows without reload), prices with 2 decimals. */
export function PurchaseHistory() {
  const orders = api.orders.mine.useQuery();
  // React Query keeps a failing query "pending" through its retries, for good while the browser is
  // offline, and as long as a request goes unanswered: the customer is told after the first
  // failure (or a long wait), not left looking at "Loading...".
  const stalled = useStalled(orders.isPending, STALLED_MS);
  const failed = orders.isError || (orders.isPending && (orders.failureCount > 0 || orders.fetchStatus === "paused" || stalled));
  if (failed) return <HistoryFailed retrying={orders.fetchStatus === "fetching"} onRetry={() => void orders.refetch()} />;
  if (orders.isPending) return <p role="status">{messages.loading}</p>;
  if (orders.data.length === 0) return <p className="text-muted">{messages.profile.noHistory}</p>;
  return (
    <ul className="space-y-4" aria-label="Orders">
      {orders.data.map((order) => (
        <li key={order.id} className="rounded-2xl border border-line bg-white p-5">
          <div className="flex flex-wrap items-baseline justify-between gap-2">
            <p className="font-semibold">
              Order{" "}
              <Link href={orderPath(order.reference)} className="tabular text-brand-700 underline underline-offset-2 hover:text-brand-800">
                {order.reference}
              </Link>
            </p>
            <p className="text-sm text-muted">
              <time dateTime={order.createdAt.toISOString()}>{formatDateTime(order.createdAt)}</time>
            </p>
          </div>
          <p className="mt-1 text-sm">
            Status: <span className="font-semibold text-brand-800" data-testid="order-status">{messages.orderStatus[order.status]}</span>
          </p>
          {order.quoteNumber ? <p className="text-sm text-muted" data-testid="from-quote">{quoteMessages.fromQuote(order.quoteNumber)}</p> : null}
          <ShopReason status={order.status} reason={shopReason(order)} />
          <OnlinePayment order={order} />
          <FulfilmentSummary fulfilment={order.fulfilment} />
          <table className="mt-3 w-full text-sm">
            <thead className="sr-only">
              <tr>
                <th>Item</th>
                <th>Price</th>
                <th>Quantity</th>
              </tr>
            </thead>
            <tbody>
              {order.items.map((item, index) => (
                <tr key={index} className="border-t border-line">
                  <td className="py-2">{item.name}</td>
                  <td className="tabular py-2 text-right">{formatRand2(item.unitPrice)}</td>
                  <td className="tabular py-2 text-right">× {item.quantity}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <p className="tabular mt-2 text-right font-bold">Total {formatRand2(order.total)}</p>
          <InvoiceLinks orderId={order.id} status={order.status} />
          <Link href={orderPath(order.reference)} className="mt-2 inline-block text-sm font-semibold text-brand-700 underline-offset-2 hover:underline" aria-label={`${orderPageMessages.view} ${order.reference}`}>
            {orderPageMessages.view}
          </Link>
        </li>
      ))}
    </ul>
  );
}
