"use client";

import { formatRand2 } from "@/lib/money";
import { messages } from "@/lib/messages";
import { api } from "@/trpc/react";
import type { OrderDetailsData } from "@/components/orders/order-details";
import { AttachProofForm } from "@/components/payments/attach-proof-form";
import { OrderBankDetails } from "@/components/payments/bank-details";
import { goToHostedPayment } from "@/components/payments/hosted-payment";
import { Button } from "@/components/ui/button";
import { StatusMessage } from "@/components/ui/status-message";
import { useFlashMessage } from "@/components/ui/use-flash-message";

const b = messages.bookings;

/**
 * An order with bookings that asked a deposit (docs/bookings.md): the deposit, the balance and
 * whether it is paid; while it is due (the deposit received) its customer pays it here, by bank
 * transfer with the balance's own reference and a proof, or online.
 */
export function BalancePanel({ order }: { order: OrderDetailsData }) {
  const balance = order.balance;
  if (!balance) return null;
  return (
    <section aria-labelledby="balance-heading" className="space-y-4 rounded-3xl border border-line bg-white p-6" data-testid="order-balance">
      <h2 id="balance-heading" className="text-xl font-bold">
        {b.balanceHeading}
      </h2>
      <p className="text-sm">{b.deposit(formatRand2(balance.deposit))}</p>
      <p className="font-semibold" data-testid="balance-status">
        {balance.paidAt ? b.balancePaid(formatRand2(balance.amount)) : b.balanceDue(formatRand2(balance.amount), balance.reference)}
      </p>
      {!balance.paidAt && balance.proofUrl ? <p className="text-sm">{b.balanceProofSent}</p> : null}
      {order.balancePayable ? (
        <>
          <p className="text-sm text-muted">{b.balanceHint(balance.reference)}</p>
          {order.balancePayNow ? <PayBalanceButton orderId={order.id} /> : null}
          {order.balanceBank ? (
            <>
              <OrderBankDetails bank={order.balanceBank} reference={balance.reference} total={balance.amount} />
              <AttachProofForm orderId={order.id} label={b.uploadBalanceProof} balance />
            </>
          ) : null}
        </>
      ) : null}
    </section>
  );
}

/** The balance online: to the provider's page, under the balance's reference; back to this page after. */
function PayBalanceButton({ orderId }: { orderId: string }) {
  const flash = useFlashMessage();
  const pay = api.payments.payBalance.useMutation({
    onSuccess: (payment) => {
      flash.show(messages.payments.redirecting, "info", { persist: true });
      goToHostedPayment(payment);
    },
    onError: (error) => flash.show(error.message || messages.payments.unavailable, "error"),
  });
  return (
    <div>
      <Button variant="accent" disabled={pay.isPending || pay.isSuccess} onClick={() => pay.mutate({ orderId })}>
        {pay.isPending || pay.isSuccess ? messages.payments.redirecting : messages.payments.payNowButton}
      </Button>
      <StatusMessage message={flash.message} />
    </div>
  );
}
