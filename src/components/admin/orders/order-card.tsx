import { formatDateTime, formatSlot } from "@/lib/days";
import { formatRand } from "@/lib/money";
import { messages, quoteMessages } from "@/lib/messages";
import type { OrderStatus } from "@/lib/statuses";
import type { RouterOutputs } from "@/trpc/react";
import { FulfilmentSummary } from "@/components/orders/fulfilment-summary";
import { InvoiceLinks } from "@/components/invoices/invoice-links";
import { OrderBalance } from "./order-balance";
import { OnlinePaymentBadge, OrderPayments } from "./order-payments";
import { OrderStatusControl } from "./order-status-control";
import { OrderMessages } from "./order-messages";
import { OrderStatusHistory } from "./order-status-history";
import type { ProofToShow } from "./proof-dialog";
import { PersonalisationList } from "@/components/orders/personalisation-list";
import { ChangeBookingTime } from "@/components/bookings/change-time";

/** One order as Order Management lists it. */
export type AdminOrder = RouterOutputs["adminOrders"]["list"]["orders"][number];

const BADGE: Record<OrderStatus, string> = {
  pending_payment: "bg-amber-100 text-amber-900",
  pending_delivery: "bg-sky-100 text-sky-900",
  complete: "bg-green-100 text-green-900",
  cancelled: "bg-slate-200 text-slate-800",
};

interface Props {
  order: AdminOrder;
  /** A status change is being saved (any order's): the selects wait for it. */
  saving: boolean;
  onStatusChange: (status: OrderStatus) => void;
  onShowProof: (proof: ProofToShow) => void;
}

/** One order's card: who, what, how much, how it is paid and fulfilled, its proof, its status and their history. */
export function OrderCard({ order, saving, onStatusChange, onShowProof }: Props) {
  return (
    <li className="space-y-3 rounded-2xl border border-line bg-white p-5" data-testid="order-card">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div>
          <p className="tabular font-bold">{order.reference}</p>
          <p className="text-xs text-muted">ID {order.id}</p>
          {order.quoteNumber ? (
            <p className="text-xs font-medium text-brand-800" data-testid="from-quote">
              {quoteMessages.fromQuote(order.quoteNumber)}
              {order.purchaseOrder ? ` · PO ${order.purchaseOrder}` : ""}
            </p>
          ) : null}
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
        <dd>{formatDateTime(order.createdAt)}</dd>
      </dl>
      <FulfilmentSummary fulfilment={order.fulfilment} />
      <ul className="text-sm" aria-label={`Items of ${order.reference}`}>
        {order.items.map((item, index) => (
          <li key={index}>
            {item.name} x {item.quantity} ({formatRand(item.unitPrice)})
            <PersonalisationList entries={item.personalisation} />
            {item.slotStartsAt ? <p className="font-medium">{messages.bookings.bookedFor(formatSlot(item.slotStartsAt))}</p> : null}
            {item.cancelled ? <p className="font-medium text-danger">{messages.bookings.lineCancelled(item.kept)}</p> : null}
            {item.bookingId && item.productId ? <ChangeBookingTime bookingId={item.bookingId} productId={item.productId} /> : null}
          </li>
        ))}
      </ul>
      <OrderPayments order={order} />
      <OrderBalance order={order} onShowProof={onShowProof} />
      <InvoiceLinks orderId={order.id} status={order.status} />
      <ProofThumbnail order={order} onShow={onShowProof} />
      <OrderStatusControl orderId={order.id} status={order.status} disabled={saving} onChange={onStatusChange} />
      <OrderStatusHistory history={order.history} />
      <OrderMessages orderId={order.id} />
    </li>
  );
}

/** The proof of payment, small: a button that shows it large (a PDF without a preview shows as "PDF"). */
function ProofThumbnail({ order, onShow }: { order: AdminOrder; onShow: (proof: ProofToShow) => void }) {
  if (!order.proofUrl) return null;
  const url = order.proofUrl;
  return (
    <button type="button" onClick={() => onShow({ url, reference: order.reference, kind: order.proofKind ?? "image", preview: order.proofPreviewUrl })} className="block">
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
  );
}
