"use client";

import { useState } from "react";
import { messages } from "@/lib/messages";
import { saveOptionsInput } from "@/server/products/schemas";
import { api } from "@/trpc/react";
import { Button } from "@/components/ui/button";
import type { useFlashMessage } from "@/components/ui/use-flash-message";

const v = messages.admin.variants;
const INPUT = "block w-full rounded-xl border border-line bg-white px-3 py-2 text-ink";

interface Draft {
  name: string;
  /** The choices as typed: comma-separated ("S, M, L"). */
  choices: string;
}

/**
 * A product's options (up to three), each a name and its choices typed as a list; saving makes
 * the variants every combination of them (save_product_options). No options: one variant.
 */
export function OptionsEditor({
  productId,
  options,
  show,
}: {
  productId: string;
  options: { name: string; choices: string[] }[];
  show: ReturnType<typeof useFlashMessage>["show"];
}) {
  const utils = api.useUtils();
  const [drafts, setDrafts] = useState<Draft[]>(() => options.map((option) => ({ name: option.name, choices: option.choices.join(", ") })));
  const [error, setError] = useState<string | null>(null);
  const save = api.adminProducts.saveOptions.useMutation({
    onSuccess: ({ message }) => {
      show(message, "success");
      void utils.adminProducts.variants.invalidate({ id: productId });
      void utils.adminProducts.list.invalidate();
    },
    onError: (failure) => setError(failure.message || v.saveFailed),
  });

  const change = (index: number, patch: Partial<Draft>) => setDrafts((current) => current.map((draft, i) => (i === index ? { ...draft, ...patch } : draft)));

  function submit(event: React.FormEvent) {
    event.preventDefault();
    const parsed = saveOptionsInput.safeParse({
      productId,
      options: drafts.map((draft) => ({ name: draft.name, choices: draft.choices.split(",").map((choice) => choice.trim()).filter(Boolean) })),
    });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? v.saveFailed);
      return;
    }
    setError(null);
    save.mutate(parsed.data);
  }

  return (
    <form onSubmit={submit} className="space-y-3" aria-label="Options">
      <h3 className="font-semibold">Options</h3>
      <p className="text-sm text-muted">Up to 3 options, e.g. Size with S, M, L. Each combination becomes a variant with its own price and stock.</p>
      {drafts.map((draft, i) => (
        <div key={i} className="grid gap-2 sm:grid-cols-[10rem_1fr_auto] sm:items-end">
          <label className="text-sm font-medium">
            Option {i + 1} name
            <input className={INPUT} value={draft.name} maxLength={40} onChange={(event) => change(i, { name: event.target.value })} />
          </label>
          <label className="text-sm font-medium">
            Choices, separated by commas
            <input className={INPUT} value={draft.choices} onChange={(event) => change(i, { choices: event.target.value })} />
          </label>
          <Button variant="ghost" onClick={() => setDrafts((current) => current.filter((_, j) => j !== i))}>
            Remove<span className="sr-only"> option {i + 1}</span>
          </Button>
        </div>
      ))}
      {error ? (
        <p role="alert" className="text-sm text-danger">
          {error}
        </p>
      ) : null}
      <div className="flex flex-wrap gap-2">
        {drafts.length < 3 ? (
          <Button variant="outline" onClick={() => setDrafts((current) => [...current, { name: "", choices: "" }])}>
            Add option
          </Button>
        ) : null}
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? "Saving..." : "Save options"}
        </Button>
      </div>
    </form>
  );
}
