"use client";

import { messages } from "@/lib/messages";
import { api } from "@/trpc/react";
import type { useFlashMessage } from "@/components/ui/use-flash-message";
import { OptionsEditor } from "./options-editor";
import { VariantsGrid } from "./variants-grid";

/** A product's "Options and stock": its options, then the grid of the variants they make. */
export function VariantsPanel({ productId, show }: { productId: string; show: ReturnType<typeof useFlashMessage>["show"] }) {
  const found = api.adminProducts.variants.useQuery({ id: productId });
  if (found.isPending) return <p role="status">Loading options...</p>;
  if (found.isError) {
    return (
      <p role="alert" className="text-danger">
        {messages.admin.variants.loadFailed}
      </p>
    );
  }
  const { options, variants, price } = found.data;
  // Keyed by what was saved, so each form starts again from the database after a save.
  const key = JSON.stringify([options, variants]);
  return (
    <div className="space-y-6 rounded-2xl border border-line bg-surface p-4">
      <OptionsEditor key={`options-${key}`} productId={productId} options={options} show={show} />
      <VariantsGrid key={`variants-${key}`} productId={productId} basePrice={price} variants={variants} show={show} />
    </div>
  );
}
