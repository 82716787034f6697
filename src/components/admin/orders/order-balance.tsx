"use client";

import { formatRand } from "@/lib/money";
import { messages } from "@/lib/messages";
import { api } from "@/trpc/react";
import { Button } from "@/components/ui/button";
import { StatusMessage } from "@/components/ui/status-message";
import { useFlashMessage } from "@/components/ui/use-flash-message";
import type { AdminOrder } from "./order-card";
import type { ProofToShow } from "./proof-dialog";

const b = messages.bookings;

/**
 * An order with bookings that asked a deposit (docs/bookings.md), in Order Management: the deposit,
 * the balance still due (with its reference and the customer's proof, if any) or paid, and, once
 * the deposit is received, "Mark balance paid" (its own invoice, and the customer's mail).
 */
export function OrderBalance({ order, onShowProof }: { order: AdminOrder; onShowProof: (proof: ProofToShow) => void }) {
  const flash = useFlashMessage();
  const utils = api.useUtils();
  const mark = api.adminOrders.markBalancePaid.useMutation({
    onSuccess: (result) => {
      flash.show(result.message, "success");
      void utils.adminOrders.invalidate();
      void utils.overview.invalidate();
      // The balance's own invoice, issued with it (the links refetch on a status change only).
      void utils.invoices.forOrder.invalidate({ orderId: order.id });
    },
    onError: (error) => flash.show(error.message || b.balanceMarkFailed, "error"),
  });
  const balance = order.balance;
  if (!balance) return null;
  const proofUrl = balance.proofUrl;
  const due = balance.paidAt === null && (order.status === "pending_delivery" || order.status === "complete");
  return (
    <div className="space-y-2 rounded-xl bg-surface p-3 text-sm" data-testid="order-balance">
      <p>{b.deposit(formatRand(balance.deposit))}</p>
      <p className="font-semibold" data-testid="balance-status">
        {balance.paidAt ? b.balancePaid(formatRand(balance.amount)) : b.balanceDue(formatRand(balance.amount), balance.reference)}
      </p>
      {proofUrl && !balance.paidAt ? (
        <button
          type="button"
          className="font-semibold text-brand-700 underline underline-offset-2"
          onClick={() => onShowProof({ url: proofUrl, reference: balance.reference, kind: balance.proofKind ?? "image", preview: null })}
        >
          {b.viewBalanceProof}
        </button>
      ) : null}
      {due ? (
        <Button variant="accent" disabled={mark.isPending} onClick={() => mark.mutate({ orderId: order.id })}>
          {mark.isPending ? "Processing..." : b.markBalancePaid}
        </Button>
      ) : null}
      <StatusMessage message={flash.message} />
    </div>
  );
}
