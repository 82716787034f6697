"use client";

import { useRef } from "react";
import { messages } from "@/lib/messages";
import { attachProofInput } from "@/server/payments/schemas";
import { api } from "@/trpc/react";
import { Button } from "@/components/ui/button";
import { StatusMessage } from "@/components/ui/status-message";
import { useFlashMessage } from "@/components/ui/use-flash-message";
import { ProofInput } from "@/components/checkout/proof-input";

/**
 * The proof upload for one of the customer's orders still waiting for payment (payments.attachProof):
 * after a cancelled online payment, and on the order's own page.
 */
export function AttachProofForm({ orderId, label = "Upload proof of payment", balance = false }: { orderId: string; label?: string; balance?: boolean }) {
  const fileInput = useRef<HTMLInputElement>(null);
  const flash = useFlashMessage();
  const utils = api.useUtils();
  const handlers = {
    onSuccess: (result: { message: string }) => {
      flash.show(result.message, "success", { persist: true });
      void utils.payments.order.invalidate({ orderId });
      void utils.orders.invalidate();
    },
    onError: (error: { message: string }) => flash.show(error.message || messages.checkout.failed, "error"),
  };
  const attachOrder = api.payments.attachProof.useMutation(handlers);
  // The balance of an order with a deposit (docs/bookings.md): its own proof, under its own reference.
  const attachBalance = api.payments.attachBalanceProof.useMutation(handlers);
  const attach = balance ? attachBalance : attachOrder;

  function submit(event: React.FormEvent) {
    event.preventDefault();
    if (attach.isPending) return;
    const form = new FormData();
    const proof = fileInput.current?.files?.[0];
    if (proof) form.set("proof", proof);
    form.set("orderId", orderId);
    const checked = attachProofInput.safeParse(form);
    if (!checked.success) return flash.show(checked.error.issues[0]?.message ?? messages.checkout.proofRequired, "error");
    attach.mutate(form);
  }

  return (
    <form onSubmit={submit} className="space-y-4" noValidate>
      <ProofInput inputRef={fileInput} disabled={attach.isPending || attach.isSuccess} />
      <Button type="submit" variant="accent" disabled={attach.isPending || attach.isSuccess}>
        {attach.isPending ? "Processing..." : label}
      </Button>
      <StatusMessage message={flash.message} />
    </form>
  );
}
