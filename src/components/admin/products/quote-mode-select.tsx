"use client";

import { quoteMessages as m } from "@/lib/messages";
import { QUOTE_MODES, type QuoteMode } from "@/lib/statuses";
import { api } from "@/trpc/react";
import type { useFlashMessage } from "@/components/ui/use-flash-message";

/** The owner's per-product setting: "Request a quote" not offered, beside Add to Cart, or instead of it. */
export function QuoteModeSelect({ product, show }: { product: { id: string; name: string; quoteMode: QuoteMode }; show: ReturnType<typeof useFlashMessage>["show"] }) {
  const utils = api.useUtils();
  const save = api.adminProducts.setQuoteMode.useMutation({
    onSuccess: ({ message }) => show(message, "success"),
    onError: (error) => show(error.message || m.modeFailed, "error"),
    onSettled: () => utils.adminProducts.list.invalidate(),
  });
  return (
    <label className="flex items-center gap-2 text-sm font-medium">
      {m.modeLabel}
      <span className="sr-only"> for {product.name}</span>
      <select
        className="rounded-xl border border-line bg-white px-3 py-2"
        value={product.quoteMode}
        disabled={save.isPending}
        onChange={(event) => save.mutate({ id: product.id, quoteMode: event.target.value as QuoteMode })}
      >
        {QUOTE_MODES.map((mode) => (
          <option key={mode} value={mode}>
            {m.modes[mode]}
          </option>
        ))}
      </select>
    </label>
  );
}
