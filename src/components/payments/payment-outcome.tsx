"use client";

import { useState } from "react";
import { messages } from "@/lib/messages";
import { api, type RouterOutputs } from "@/trpc/react";
import { Button } from "@/components/ui/button";
import { AttachProofForm } from "./attach-proof-form";
import { OrderBankDetails } from "./bank-details";
import { PayAgainButton } from "./pay-again-button";

const m = messages.payments;

/** How often the return page asks again while PayFast's notification is on its way. */
const AWAITING_POLL_MS = 2_000;

/**
 * Where the provider sends the customer back to. `returned`: after paying (the notification may
 * still be on its way: the page asks again until the order is paid); `cancelled`: they cancelled
 * on PayFast's page, and the order can still be paid now or by bank transfer with a proof.
 */
export function PaymentOutcome({ orderId, returned }: { orderId: string; returned: boolean }) {
  const order = api.payments.order.useQuery(
    { orderId },
    { refetchInterval: (query) => (returned && query.state.data?.status === "pending_payment" ? AWAITING_POLL_MS : false) },
  );
  if (order.isPending) return <p role="status">{messages.loading}</p>;
  if (order.isError) return <p role="alert" className="text-danger">{order.error.message || m.notPayable}</p>;
  const { reference, status, payable } = order.data;

  if (status !== "pending_payment") {
    return (
      <p role="status" className="rounded-2xl border border-green-200 bg-green-50 p-5 font-medium" data-testid="payment-outcome">
        {status === "cancelled" ? m.orderClosed(reference) : m.paid(reference)}
      </p>
    );
  }
  if (returned && order.data.paymentMethod === "payfast" && payable) {
    return (
      <p role="status" className="rounded-2xl border border-line bg-white p-5" data-testid="payment-outcome">
        {m.awaiting(reference)}
      </p>
    );
  }
  if (!payable) {
    return (
      <p role="status" className="rounded-2xl border border-line bg-white p-5" data-testid="payment-outcome">
        {m.proofAttached(reference)}
      </p>
    );
  }
  return (
    <div className="space-y-6">
      <p role="status" className="rounded-2xl border border-line bg-white p-5" data-testid="payment-outcome">
        {m.cancelled(reference)}
      </p>
      <PayAgainButton orderId={orderId} />
      {order.data.bank ? <SwitchToBankTransfer orderId={orderId} reference={reference} total={order.data.total} bank={order.data.bank} /> : null}
    </div>
  );
}

type Bank = NonNullable<RouterOutputs["payments"]["order"]["bank"]>;

/** Paying the same order by bank transfer instead: the shop's account, the order's reference, and the proof upload. */
function SwitchToBankTransfer({ orderId, reference, total, bank }: { orderId: string; reference: string; total: number; bank: Bank }) {
  const [open, setOpen] = useState(false);

  if (!open) {
    return (
      <Button variant="outline" onClick={() => setOpen(true)}>
        {m.switchToBankTransfer}
      </Button>
    );
  }
  return (
    <section aria-labelledby="bank-transfer-heading" className="space-y-4 rounded-3xl border border-line bg-white p-6">
      <h2 id="bank-transfer-heading" className="text-xl font-bold">
        {m.bankTransferOption}
      </h2>
      <OrderBankDetails bank={bank} reference={reference} total={total} />
      <AttachProofForm orderId={orderId} />
    </section>
  );
}
