"use client";

import { Link } from "@/components/ui/link";
import { formatRand2 } from "@/lib/money";
import { messages, orderPageMessages as m, quoteMessages } from "@/lib/messages";
import { api, type RouterOutputs } from "@/trpc/react";
import { InvoiceLinks } from "@/components/invoices/invoice-links";
import { AttachProofForm } from "@/components/payments/attach-proof-form";
import { OrderBankDetails } from "@/components/payments/bank-details";
import { PayAgainButton } from "@/components/payments/pay-again-button";
import { FulfilmentSummary } from "./fulfilment-summary";
import { PersonalisationList } from "./personalisation-list";
import { ChangeBookingTime } from "@/components/bookings/change-time";
import { BalancePanel } from "@/components/bookings/balance-panel";
import { formatDateTime, formatSlot } from "@/lib/days";

export type OrderDetailsData = RouterOutputs["orders"]["byReference"];

/**
 * One order as its page shows it: lines and total, delivery or collection, status and its history,
 * invoices, and while it is unpaid the bank details with its reference and the ways to pay it.
 * Live: a status change (the live updates invalidate `orders`) shows without a reload.
 */
export function OrderDetails({ initial }: { initial: OrderDetailsData }) {
  const query = api.orders.byReference.useQuery({ reference: initial.reference }, { initialData: initial });
  const order = query.data;
  const paid = order.payments.find((payment) => payment.outcome === "applied");
  return (
    <div className="space-y-6">
      <section aria-labelledby="order-heading" className="space-y-3 rounded-3xl border border-line bg-white p-6">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h1 id="order-heading" className="text-3xl font-bold">
            {m.title(order.reference)}
          </h1>
          <p className="text-sm text-muted">
            <time dateTime={order.createdAt.toISOString()}>{m.placed(formatDateTime(order.createdAt))}</time>
          </p>
        </div>
        <p>
          Status: <span className="font-semibold text-brand-800" data-testid="order-status">{messages.orderStatus[order.status]}</span>
        </p>
        {order.quoteNumber ? (
          <p className="text-sm text-muted" data-testid="from-quote">
            {quoteMessages.fromQuote(order.quoteNumber)}
            {order.purchaseOrder ? ` · ${quoteMessages.purchaseOrderShown(order.purchaseOrder)}` : ""}
          </p>
        ) : null}
        {paid ? <p className="text-sm font-medium text-green-800">{messages.payments.paidBy(paid.provider)}</p> : null}
        <FulfilmentSummary fulfilment={order.fulfilment} />
        <table className="w-full text-sm" aria-label="Order lines">
          <thead className="text-left text-muted">
            <tr>
              <th className="py-2 font-medium">Item</th>
              <th className="py-2 text-right font-medium">Price</th>
              <th className="py-2 text-right font-medium">Quantity</th>
              <th className="py-2 text-right font-medium">Amount</th>
            </tr>
          </thead>
          <tbody>
            {order.items.map((item, index) => (
              <tr key={index} className="border-t border-line">
                <td className="py-2">
                  {item.name}
                  <PersonalisationList entries={item.personalisation} />
                  {item.slotStartsAt ? <p className="text-sm font-medium">{messages.bookings.bookedFor(formatSlot(item.slotStartsAt))}</p> : null}
                  {item.cancelled ? <p className="text-sm font-medium text-danger">{messages.bookings.lineCancelled(item.kept)}</p> : null}
                  {item.bookingId && item.productId ? <ChangeBookingTime bookingId={item.bookingId} productId={item.productId} /> : null}
                </td>
                <td className="tabular py-2 text-right">{formatRand2(item.unitPrice)}</td>
                <td className="tabular py-2 text-right">× {item.quantity}</td>
                <td className="tabular py-2 text-right">{formatRand2(item.unitPrice * item.quantity)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <p className="tabular text-right text-lg font-bold" data-testid="order-total">
          Total {formatRand2(order.total)}
        </p>
        <InvoiceLinks orderId={order.id} status={order.status} />
      </section>

      {order.status === "pending_payment" ? <Payment order={order} /> : null}
      {order.balance ? <BalancePanel order={order} /> : null}

      <section aria-labelledby="history-heading" className="rounded-3xl border border-line bg-white p-6">
        <h2 id="history-heading" className="text-xl font-bold">
          {m.statusHistory}
        </h2>
        <ol className="mt-3 space-y-2 text-sm" data-testid="status-history">
          {order.history.map((event, index) => (
            <li key={index} className="flex flex-wrap gap-x-3">
              <time dateTime={event.at.toISOString()} className="text-muted">
                {formatDateTime(event.at)}
              </time>
              <span className="font-medium">{messages.orderStatus[event.to]}</span>
              {event.reason ? <span className="text-muted">{event.reason}</span> : null}
            </li>
          ))}
        </ol>
      </section>

      <Link href="/profile" className="inline-block font-semibold text-brand-700 underline-offset-2 hover:underline">
        {m.backToHistory}
      </Link>
    </div>
  );
}

/** While unpaid: the account and reference to pay with, and (for its customer, no proof sent yet) "Pay now" or a proof upload. */
function Payment({ order }: { order: OrderDetailsData }) {
  return (
    <section aria-labelledby="payment-heading" className="space-y-4 rounded-3xl border border-line bg-white p-6" data-testid="order-payment">
      <h2 id="payment-heading" className="text-xl font-bold">
        Payment
      </h2>
      {order.payNow ? (
        <div className="flex flex-wrap items-center gap-3">
          <p className="text-sm text-muted">{messages.payments.payNowOption}</p>
          <PayAgainButton orderId={order.id} />
        </div>
      ) : null}
      {order.proofUrl ? <p className="text-sm">{m.proofReceived}</p> : null}
      {order.bank ? (
        <>
          {order.bankTransfer === "demo" ? <p className="text-sm font-medium text-ink">{messages.checkout.demoBankDetails}</p> : null}
          <p className="text-sm text-muted">{order.proofUrl ? m.payByTransferLater : m.payByTransfer}</p>
          <OrderBankDetails bank={order.bank} reference={order.reference} total={order.balance?.deposit ?? order.total} />
          {order.payable ? <AttachProofForm orderId={order.id} label={m.uploadProof} /> : null}
        </>
      ) : null}
    </section>
  );
}
