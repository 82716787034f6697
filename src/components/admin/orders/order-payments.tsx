import { formatRand2 } from "@/lib/money";
import { messages } from "@/lib/messages";
import type { RouterOutputs } from "@/trpc/react";
import { formatDateTime } from "@/lib/days";

type OrderRow = RouterOutputs["adminOrders"]["list"]["orders"][number];

/** A badge for an order paid online, or one whose online payment must be refunded. */
export function OnlinePaymentBadge({ order }: { order: OrderRow }) {
  if (order.payments.some((payment) => payment.outcome === "refund_due")) {
    return <span className="rounded-full bg-red-100 px-2.5 py-1 text-xs font-semibold text-red-900">{messages.payments.refundDue}</span>;
  }
  const paid = order.payments.find((payment) => payment.outcome === "applied");
  if (paid) return <span className="rounded-full bg-green-100 px-2.5 py-1 text-xs font-semibold text-green-900" data-testid="paid-online-badge">{messages.payments.paidBy(paid.provider)}</span>;
  if (order.paymentMethod !== "bank_transfer" && order.status === "pending_payment" && !order.proofUrl) {
    return <span className="rounded-full bg-amber-100 px-2.5 py-1 text-xs font-semibold text-amber-900">{messages.payments.awaitingOnline}</span>;
  }
  return null;
}

/** The online payments of an order (instead of a proof image): method, the provider's payment id, amount and time. */
export function OrderPayments({ order }: { order: OrderRow }) {
  if (order.payments.length === 0) return null;
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 rounded-xl bg-surface p-3 text-sm" aria-label={`Payments of ${order.reference}`} data-testid="order-payments">
      {order.payments.map((payment) => (
        <div key={payment.providerPaymentId} className="contents">
          <dt className="text-muted">Paid by</dt>
          <dd className="font-medium">
            {payment.provider}
            {payment.outcome === "refund_due" ? <span className="text-danger"> ({messages.payments.refundDue})</span> : null}
          </dd>
          <dt className="text-muted">{payment.provider} payment id</dt>
          <dd className="tabular break-all">{payment.providerPaymentId}</dd>
          <dt className="text-muted">Amount</dt>
          <dd className="tabular">{formatRand2(payment.amount)}</dd>
          <dt className="text-muted">Received</dt>
          <dd>{formatDateTime(payment.receivedAt)}</dd>
        </div>
      ))}
    </dl>
  );
}
