"use client";

import { useState } from "react";
import { quoteMessages as m } from "@/lib/messages";
import { firstProblem } from "@/lib/validation";
import { acceptQuoteInput, askQuoteChangeInput, declineQuoteInput, QUOTE_LIMITS } from "@/server/quotes/schemas";
import { orderPath } from "@/lib/order-paths";
import { api } from "@/trpc/react";
import { Button } from "@/components/ui/button";
import { TextAreaField, TextField } from "@/components/ui/form-field";
import { loadPage } from "@/components/ui/load-page";
import { StatusMessage } from "@/components/ui/status-message";
import { useFlashMessage } from "@/components/ui/use-flash-message";
import { QuoteAcceptChoices } from "./quote-accept-choices";
import { useAcceptChoices } from "./use-accept-choices";

type Mode = "accept" | "decline" | "change";

/**
 * The customer's decision on their open version: accept (delivery or collection and the booked
 * times where it asks them, their purchase-order number, then the order's page to pay it),
 * decline with a reason, or ask for a change. Each checked with its procedure's schema; the
 * database checks the state, date, choice and times again at that moment.
 */
export function QuoteDecision({ quoteId, total }: { quoteId: string; total: number }) {
  const [mode, setMode] = useState<Mode>("accept");
  const choices = useAcceptChoices(quoteId, mode === "accept");
  const [purchaseOrder, setPurchaseOrder] = useState("");
  const [text, setText] = useState("");
  const flash = useFlashMessage(8_000);
  const utils = api.useUtils();
  const onError = (error: { message: string }) => {
    flash.show(error.message || m.decideFailed, "error");
    // A time or a day taken meanwhile: offer them as they are now.
    void utils.quotes.invalidate();
    void utils.bookings.freeSlots.invalidate();
  };
  const done = (message: string) => {
    flash.show(message, "success", { persist: true });
    setText("");
    void utils.quotes.invalidate();
  };
  const accept = api.quotes.accept.useMutation({
    onSuccess: ({ reference, message }) => {
      flash.show(message, "success", { persist: true });
      loadPage(orderPath(reference));
    },
    onError,
  });
  const decline = api.quotes.decline.useMutation({ onSuccess: ({ message }) => done(message), onError });
  const change = api.quotes.askChange.useMutation({ onSuccess: ({ message }) => done(message), onError });
  const pending = accept.isPending || decline.isPending || change.isPending || accept.isSuccess;

  function submit(event: React.FormEvent) {
    event.preventDefault();
    if (pending) return;
    const problem =
      mode === "accept"
        ? firstProblem(acceptQuoteInput, { quoteId, purchaseOrder })
        : mode === "decline"
          ? firstProblem(declineQuoteInput, { quoteId, reason: text })
          : firstProblem(askQuoteChangeInput, { quoteId, message: text });
    if (problem) return flash.show(problem, "error");
    if (mode === "accept") {
      const chosen = choices.chosen();
      if ("error" in chosen) return flash.show(chosen.error, "error");
      accept.mutate({ quoteId, purchaseOrder, ...chosen });
    } else if (mode === "decline") decline.mutate({ quoteId, reason: text });
    else change.mutate({ quoteId, message: text });
  }

  const tab = (which: Mode, label: string) => (
    <Button variant={mode === which ? "primary" : "outline"} aria-pressed={mode === which} onClick={() => setMode(which)} disabled={pending}>
      {label}
    </Button>
  );
  return (
    <form onSubmit={submit} noValidate className="space-y-4" aria-label={m.decisionTitle}>
      <div className="flex flex-wrap gap-2" role="group" aria-label={m.decisionTitle}>
        {tab("accept", m.acceptButton)}
        {tab("change", m.changeButton)}
        {tab("decline", m.declineButton)}
      </div>
      {mode === "accept" ? (
        <>
          <QuoteAcceptChoices choices={choices} total={total} disabled={pending} />
          <TextField label={m.purchaseOrderLabel} maxLength={QUOTE_LIMITS.purchaseOrder} value={purchaseOrder} onChange={(event) => setPurchaseOrder(event.target.value)} disabled={pending} />
        </>
      ) : (
        <TextAreaField
          label={mode === "decline" ? m.declineReasonLabel : m.changeLabel}
          id={`quote-${mode}`}
          rows={4}
          maxLength={mode === "decline" ? QUOTE_LIMITS.reason : QUOTE_LIMITS.message}
          value={text}
          onChange={(event) => setText(event.target.value)}
          disabled={pending}
        />
      )}
      <Button type="submit" variant={mode === "accept" ? "accent" : "primary"} disabled={pending}>
        {accept.isPending ? m.accepting : mode === "accept" ? m.acceptSubmit : mode === "decline" ? m.confirmDecline : m.sendChange}
      </Button>
      <StatusMessage message={flash.message} />
    </form>
  );
}
