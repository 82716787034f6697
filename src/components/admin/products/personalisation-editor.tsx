"use client";

import { useState } from "react";
import { messages } from "@/lib/messages";
import { savePersonalisationInput } from "@/server/products/schemas";
import { api } from "@/trpc/react";
import { Button } from "@/components/ui/button";
import type { useFlashMessage } from "@/components/ui/use-flash-message";

const v = messages.admin.variants;
const INPUT = "block w-full min-w-0 rounded-lg border border-line bg-white px-2 py-1.5 text-sm text-ink";

interface Field {
  id?: string;
  label: string;
  kind: "text" | "file";
  required: boolean;
  maxLength: number | null;
  price: string;
}

interface Draft extends Omit<Field, "maxLength" | "price"> {
  maxLength: string;
  price: string;
}

const toDraft = (field: Field): Draft => ({ ...field, maxLength: field.maxLength === null ? "" : String(field.maxLength), price: Number(field.price) > 0 ? field.price : "" });

/** What the product asks customers to add to their line: texts (with a maximum length) and files (a logo), each with an optional price. */
export function PersonalisationEditor({ productId, fields, show }: { productId: string; fields: Field[]; show: ReturnType<typeof useFlashMessage>["show"] }) {
  const utils = api.useUtils();
  const [drafts, setDrafts] = useState<Draft[]>(() => fields.map(toDraft));
  const [error, setError] = useState<string | null>(null);
  const save = api.adminProducts.savePersonalisation.useMutation({
    onSuccess: ({ message }) => {
      show(message, "success");
      void utils.adminProducts.variants.invalidate({ id: productId });
    },
    onError: (failure) => setError(failure.message || v.saveFailed),
  });
  const change = (index: number, patch: Partial<Draft>) => setDrafts((current) => current.map((draft, i) => (i === index ? { ...draft, ...patch } : draft)));

  function submit(event: React.FormEvent) {
    event.preventDefault();
    const parsed = savePersonalisationInput.safeParse({
      productId,
      fields: drafts.map((draft) => ({ ...draft, maxLength: draft.kind === "text" ? Number(draft.maxLength || Number.NaN) : null, price: draft.price.trim() })),
    });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? v.saveFailed);
      return;
    }
    setError(null);
    save.mutate(parsed.data);
  }

  return (
    <form onSubmit={submit} className="space-y-3" aria-label="Personalisation">
      <h3 className="font-semibold">Personalisation</h3>
      <p className="text-sm text-muted">What customers add to their line, e.g. a name to embroider (text) or their logo (file).</p>
      {drafts.map((draft, i) => (
        <div key={draft.id ?? `new-${i}`} className="grid gap-2 sm:grid-cols-[1fr_7rem_6rem_6rem_auto_auto] sm:items-end">
          <label className="text-sm font-medium">
            Field {i + 1} label
            <input className={INPUT} maxLength={60} value={draft.label} onChange={(event) => change(i, { label: event.target.value })} />
          </label>
          <label className="text-sm font-medium">
            Kind
            <select className={INPUT} value={draft.kind} onChange={(event) => change(i, { kind: event.target.value as Draft["kind"], maxLength: event.target.value === "text" ? draft.maxLength || "40" : "" })}>
              <option value="text">Text</option>
              <option value="file">File</option>
            </select>
          </label>
          <label className="text-sm font-medium">
            Max length
            <input className={INPUT} inputMode="numeric" disabled={draft.kind !== "text"} value={draft.maxLength} onChange={(event) => change(i, { maxLength: event.target.value })} />
          </label>
          <label className="text-sm font-medium">
            Price (R)
            <input className={INPUT} inputMode="decimal" placeholder="free" value={draft.price} onChange={(event) => change(i, { price: event.target.value })} />
          </label>
          <label className="flex items-center gap-2 text-sm font-medium">
            <input type="checkbox" className="h-5 w-5" checked={draft.required} onChange={(event) => change(i, { required: event.target.checked })} />
            Required
          </label>
          <Button variant="ghost" onClick={() => setDrafts((current) => current.filter((_, j) => j !== i))}>
            Remove<span className="sr-only"> field {i + 1}</span>
          </Button>
        </div>
      ))}
      {error ? (
        <p role="alert" className="text-sm text-danger">
          {error}
        </p>
      ) : null}
      <div className="flex flex-wrap gap-2">
        {drafts.length < 5 ? (
          <Button variant="outline" onClick={() => setDrafts((current) => [...current, { label: "", kind: "text", required: false, maxLength: "40", price: "" }])}>
            Add field
          </Button>
        ) : null}
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? "Saving..." : "Save personalisation"}
        </Button>
      </div>
    </form>
  );
}
