"use client";

import { useState } from "react";
import { shopDay } from "@/lib/days";
import { quoteMessages as m } from "@/lib/messages";
import { firstProblem } from "@/lib/validation";
import { QUOTE_LIMITS, saveQuoteDraftInput } from "@/server/quotes/schemas";
import { api } from "@/trpc/react";
import { Button } from "@/components/ui/button";
import { TextAreaField, TextField } from "@/components/ui/form-field";
import type { useFlashMessage } from "@/components/ui/use-flash-message";
import type { QuoteRequestData } from "@/components/quotes/quote-request-details";
import { BuilderLine, type DraftLine } from "./builder-line";

/** How long a new quote is valid by default. */
const DEFAULT_VALID_DAYS = 30;
let nextKey = 0;
const key = () => `line-${nextKey++}`;

/** Where the builder starts: the draft being edited, else the latest version (a revision), else what the customer named. */
function startingLines(request: QuoteRequestData): DraftLine[] {
  const latest = request.versions[0];
  if (latest) {
    return latest.lines.map((line) =>
      line.isCustom || !line.variantId
        ? { key: key(), kind: "custom", description: line.description, quantity: line.quantity, unitPrice: line.unitPrice.toFixed(2) }
        : { key: key(), kind: "catalogue", variantId: line.variantId, quantity: line.quantity, unitPrice: line.unitPrice.toFixed(2) },
    );
  }
  return request.items.map((item) => ({ key: key(), kind: "catalogue", variantId: item.variantId, quantity: item.quantity, unitPrice: "" }));
}

/**
 * The quote builder: catalogue lines (a variant, its price editable) and custom lines, a validity
 * date, terms and a note; saved as a draft, or saved and sent. After a version was sent, the same
 * form starts the next version (a revision) from it.
 */
export function QuoteBuilder({ request, show }: { request: QuoteRequestData; show: ReturnType<typeof useFlashMessage>["show"] }) {
  const latest = request.versions[0];
  const [lines, setLines] = useState<DraftLine[]>(() => startingLines(request));
  const [validUntil, setValidUntil] = useState(latest && latest.validUntil >= shopDay() ? latest.validUntil : shopDay(DEFAULT_VALID_DAYS));
  const [terms, setTerms] = useState(latest?.terms ?? "");
  const [note, setNote] = useState(latest?.note ?? "");
  const utils = api.useUtils();
  const variants = api.adminQuotes.variants.useQuery();
  const refresh = () => void Promise.all([utils.adminQuotes.invalidate(), utils.quotes.invalidate()]);
  const onError = (error: { message: string }) => show(error.message || m.saveFailed, "error");
  const save = api.adminQuotes.saveDraft.useMutation({ onError });
  const send = api.adminQuotes.send.useMutation({ onError });
  const pending = save.isPending || send.isPending;

  function input() {
    return {
      requestId: request.id,
      validUntil,
      terms,
      note,
      lines: lines.map((line) =>
        line.kind === "catalogue"
          ? { kind: line.kind, variantId: line.variantId, quantity: line.quantity, unitPrice: line.unitPrice }
          : { kind: line.kind, description: line.description, quantity: line.quantity, unitPrice: line.unitPrice },
      ),
    };
  }

  async function submit(andSend: boolean) {
    if (pending) return;
    const values = input();
    const problem = firstProblem(saveQuoteDraftInput, values);
    if (problem) return show(problem, "error");
    try {
      const saved = await save.mutateAsync(values);
      const result = andSend ? await send.mutateAsync({ quoteId: saved.quoteId }) : saved;
      show(result.message, "success", { persist: true });
    } catch {
      // Shown by the mutation's onError.
    } finally {
      refresh();
    }
  }

  const add = (kind: DraftLine["kind"]) =>
    setLines((all) => [...all, kind === "catalogue" ? { key: key(), kind, variantId: "", quantity: 1, unitPrice: "" } : { key: key(), kind, description: "", quantity: 1, unitPrice: "" }]);
  return (
    <form
      noValidate
      className="space-y-5"
      aria-label={m.builderTitle(request.number)}
      onSubmit={(event) => {
        event.preventDefault();
        void submit(false);
      }}
    >
      <p className="text-sm text-muted">{m.builderIntro}</p>
      <ol className="space-y-3">
        {lines.map((line, index) => (
          <BuilderLine
            key={line.key}
            line={line}
            index={index}
            variants={variants.data ?? []}
            onChange={(changed) => setLines((all) => all.map((other) => (other.key === line.key ? changed : other)))}
            onRemove={() => setLines((all) => all.filter((other) => other.key !== line.key))}
          />
        ))}
      </ol>
      <div className="flex flex-wrap gap-2">
        <Button variant="outline" onClick={() => add("catalogue")} disabled={pending}>
          {m.addCatalogueLine}
        </Button>
        <Button variant="outline" onClick={() => add("custom")} disabled={pending}>
          {m.addCustomLine}
        </Button>
      </div>
      <TextField label={m.validUntilLabel} type="date" value={validUntil} onChange={(event) => setValidUntil(event.target.value)} disabled={pending} />
      <TextAreaField label={m.termsLabel} id="quote-terms" rows={3} maxLength={QUOTE_LIMITS.terms} value={terms} onChange={(event) => setTerms(event.target.value)} disabled={pending} />
      <TextAreaField label={m.noteLabel} id="quote-note" rows={3} maxLength={QUOTE_LIMITS.note} value={note} onChange={(event) => setNote(event.target.value)} disabled={pending} />
      <div className="flex flex-wrap gap-3">
        <Button type="submit" variant="outline" disabled={pending}>
          {m.saveDraft}
        </Button>
        <Button variant="accent" onClick={() => void submit(true)} disabled={pending}>
          {m.send}
        </Button>
      </div>
    </form>
  );
}
