"use client";

import { quoteMessages as m } from "@/lib/messages";
import { QUOTE_LIMITS } from "@/server/quotes/schemas";
import type { RouterOutputs } from "@/trpc/react";

/** A line as the builder edits it: the price as typed (text), a catalogue variant or a description. */
export type DraftLine = { key: string; kind: "catalogue"; variantId: string; quantity: number; unitPrice: string } | { key: string; kind: "custom"; description: string; quantity: number; unitPrice: string };

type Variant = RouterOutputs["adminQuotes"]["variants"][number];

const input = "rounded-lg border border-line px-3 py-2 text-sm";

/**
 * One line of the builder: a catalogue variant (picked from the catalogue; its list price shown
 * and taken as the price when picked, which may then be changed) or a custom description;
 * quantity and unit price (VAT inclusive, as on invoices).
 */
export function BuilderLine({ line, index, variants, onChange, onRemove }: { line: DraftLine; index: number; variants: Variant[]; onChange: (line: DraftLine) => void; onRemove: () => void }) {
  const listPrice = line.kind === "catalogue" ? variants.find((v) => v.variantId === line.variantId)?.listPrice : undefined;
  return (
    <li className="grid gap-2 rounded-xl border border-line p-3 sm:grid-cols-[1fr_7rem_8rem_auto] sm:items-end" data-testid="builder-line">
      {line.kind === "catalogue" ? (
        <label className="text-sm">
          <span className="mb-1 block font-medium">{m.variantLabel(index + 1)}</span>
          <select
            className={`${input} w-full`}
            value={line.variantId}
            onChange={(event) => {
              const picked = variants.find((v) => v.variantId === event.target.value);
              onChange({ ...line, variantId: event.target.value, unitPrice: picked ? picked.listPrice.toFixed(2) : line.unitPrice });
            }}
          >
            <option value="">{m.pickVariant}</option>
            {variants.map((variant) => (
              <option key={variant.variantId} value={variant.variantId}>
                {variant.name}
              </option>
            ))}
          </select>
          {listPrice !== undefined ? <span className="mt-1 block text-xs text-muted">{m.listPrice(listPrice.toFixed(2))}</span> : null}
        </label>
      ) : (
        <label className="text-sm">
          <span className="mb-1 block font-medium">{m.descriptionOfLine(index + 1)}</span>
          <input className={`${input} w-full`} maxLength={QUOTE_LIMITS.lineDescription} value={line.description} onChange={(event) => onChange({ ...line, description: event.target.value })} />
        </label>
      )}
      <label className="text-sm">
        <span className="mb-1 block font-medium">{m.quantityLabel}</span>
        <input className={`${input} tabular w-full`} type="number" min={1} max={QUOTE_LIMITS.quantity} value={line.quantity} onChange={(event) => onChange({ ...line, quantity: Number(event.target.value) })} />
      </label>
      <label className="text-sm">
        <span className="mb-1 block font-medium">{m.unitPriceLabel}</span>
        <input className={`${input} tabular w-full`} inputMode="decimal" value={line.unitPrice} onChange={(event) => onChange({ ...line, unitPrice: event.target.value })} />
      </label>
      <button type="button" className="min-h-11 text-sm text-brand-700 underline" onClick={onRemove}>
        {m.removeItem}
      </button>
    </li>
  );
}
