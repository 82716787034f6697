"use client";

import { messages } from "@/lib/messages";
import { api } from "@/trpc/react";
import type { useFlashMessage } from "@/components/ui/use-flash-message";
import { OptionsEditor } from "./options-editor";
import { PersonalisationEditor } from "./personalisation-editor";
import { VariantsGrid } from "./variants-grid";

/** A product's "Options and stock": its options, the grid of the variants they make, and its personalisation fields. */
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
  const { options, variants, pictures, price, personalisation } = found.data;
  // The options and personalisation forms start again from what was saved (new ids included); the
  // grid only when the options made other variants: it merges what is read again with edits not yet saved.
  const variantIds = variants.map((variant) => variant.id).join();
  return (
    <div className="space-y-6 rounded-2xl border border-line bg-surface p-4">
      <OptionsEditor key={`options-${JSON.stringify(options)}`} productId={productId} options={options} show={show} />
      <VariantsGrid key={`variants-${variantIds}`} productId={productId} basePrice={price} variants={variants} pictures={pictures} show={show} />
      <PersonalisationEditor key={`personalisation-${JSON.stringify(personalisation)}`} productId={productId} fields={personalisation} show={show} />
    </div>
  );
}
