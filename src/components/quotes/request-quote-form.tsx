"use client";

import { useState } from "react";
import { quoteMessages as m } from "@/lib/messages";
import { firstProblem } from "@/lib/validation";
import { QUOTE_LIMITS, requestQuoteInput } from "@/server/quotes/schemas";
import { api } from "@/trpc/react";
import { Button } from "@/components/ui/button";
import { TextAreaField, TextField } from "@/components/ui/form-field";
import { loadPage } from "@/components/ui/load-page";
import { StatusMessage } from "@/components/ui/status-message";
import { useFlashMessage } from "@/components/ui/use-flash-message";
import { QuoteFiles, type AttachedFile } from "./quote-files";
import { quotePath } from "@/lib/order-paths";

/** A product named in the request: from a product's page or the cart. */
export interface RequestedItem {
  variantId: string;
  name: string;
  quantity: number;
}

/**
 * "Request a quote": what the customer needs, the products and quantities (prefilled from a
 * product or the cart, quantities editable), a preferred date, company and VAT number, files.
 * Checked here with the procedure's own schema; sent, it opens the request's page.
 */
export function RequestQuoteForm({ initialItems }: { initialItems: RequestedItem[] }) {
  const [items, setItems] = useState(initialItems);
  const [values, setValues] = useState({ description: "", preferredDate: "", company: "", vatNumber: "" });
  const [files, setFiles] = useState<AttachedFile[]>([]);
  const flash = useFlashMessage(8_000);
  const request = api.quotes.request.useMutation({
    onSuccess: ({ requestId, message }) => {
      flash.show(message, "success", { persist: true });
      loadPage(quotePath(requestId));
    },
    onError: (error) => flash.show(error.message || m.requestFailed, "error"),
  });
  const field = (name: keyof typeof values) => ({
    value: values[name],
    onChange: (event: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => setValues((v) => ({ ...v, [name]: event.target.value })),
    disabled: request.isPending,
  });

  function submit(event: React.FormEvent) {
    event.preventDefault();
    if (request.isPending || request.isSuccess) return;
    const input = {
      ...values,
      preferredDate: values.preferredDate || null,
      items: items.map(({ variantId, quantity }) => ({ variantId, quantity })),
      files,
    };
    const problem = firstProblem(requestQuoteInput, input);
    if (problem) return flash.show(problem, "error");
    request.mutate(input);
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-5" aria-label={m.title}>
      <TextAreaField label={m.descriptionLabel} id="quote-description" rows={6} maxLength={QUOTE_LIMITS.description} {...field("description")} />
      {items.length > 0 ? (
        <fieldset className="space-y-2">
          <legend className="mb-1.5 text-sm font-medium text-ink">{m.itemsLabel}</legend>
          {items.map((item, index) => (
            <div key={item.variantId} className="flex flex-wrap items-center gap-3">
              <label htmlFor={`quote-item-${index}`} className="min-w-48 flex-1 text-sm">
                {item.name}
              </label>
              <input
                id={`quote-item-${index}`}
                type="number"
                min={1}
                max={QUOTE_LIMITS.quantity}
                value={item.quantity}
                onChange={(event) => setItems((all) => all.map((other, at) => (at === index ? { ...other, quantity: Number(event.target.value) } : other)))}
                className="w-28 rounded-lg border border-line px-3 py-2 tabular"
              />
              <button type="button" className="text-sm text-brand-700 underline" onClick={() => setItems((all) => all.filter((_, at) => at !== index))}>
                {m.removeItem}
              </button>
            </div>
          ))}
        </fieldset>
      ) : null}
      <TextField label={m.preferredDateLabel} type="date" {...field("preferredDate")} />
      <div className="grid gap-5 sm:grid-cols-2">
        <TextField label={m.companyLabel} autoComplete="organization" maxLength={QUOTE_LIMITS.company} {...field("company")} />
        <TextField label={m.vatNumberLabel} inputMode="numeric" maxLength={14} {...field("vatNumber")} />
      </div>
      <QuoteFiles files={files} onChange={setFiles} onProblem={(message) => flash.show(message, "error")} />
      <Button type="submit" variant="accent" disabled={request.isPending || request.isSuccess}>
        {request.isPending ? m.sending : m.requestButton}
      </Button>
      <StatusMessage message={flash.message} />
    </form>
  );
}
