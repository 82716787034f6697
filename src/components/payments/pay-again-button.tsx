"use client";

import { messages } from "@/lib/messages";
import { api } from "@/trpc/react";
import { Button } from "@/components/ui/button";
import { StatusMessage } from "@/components/ui/status-message";
import { useFlashMessage } from "@/components/ui/use-flash-message";
import { goToHostedPayment } from "./hosted-payment";

const m = messages.payments;

/** "Pay now" for one of the customer's orders still waiting for payment: back to PayFast's page. */
export function PayAgainButton({ orderId, className }: { orderId: string; className?: string }) {
  const flash = useFlashMessage();
  const pay = api.payments.payAgain.useMutation({
    onSuccess: (payment) => {
      flash.show(m.redirecting, "info", { persist: true });
      goToHostedPayment(payment);
    },
    onError: (error) => flash.show(error.message || m.unavailable, "error"),
  });
  return (
    <div className={className}>
      <Button variant="accent" disabled={pay.isPending || pay.isSuccess} onClick={() => pay.mutate({ orderId })}>
        {pay.isPending || pay.isSuccess ? m.redirecting : m.payAgain}
      </Button>
      <StatusMessage message={flash.message} />
    </div>
  );
}
