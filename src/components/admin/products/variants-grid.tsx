"use client";

import { useState } from "react";
import { messages } from "@/lib/messages";
import { formatRand } from "@/lib/money";
import { saveVariantsInput } from "@/server/products/schemas";
import type { AdminVariant } from "@/server/products/product-queries";
import { api } from "@/trpc/react";
import { Button } from "@/components/ui/button";
import type { useFlashMessage } from "@/components/ui/use-flash-message";
import { GRID_INPUT, mergeRows, toRow, VariantRow, type VariantRowValues } from "./variant-row";

const v = messages.admin.variants;

const count = (text: string) => (text.trim() === "" ? null : Number(text));

/**
 * Every variant in a grid: SKU, price (empty: the product's), available, stock (empty: not
 * counted) and the low-stock mark; "Set all" fills one column for every row. Saved all at once.
 */
export function VariantsGrid({
  productId,
  basePrice,
  variants,
  pictures,
  show,
}: {
  productId: string;
  basePrice: string;
  variants: AdminVariant[];
  pictures: { id: string; alt: string; position: number }[];
  show: ReturnType<typeof useFlashMessage>["show"];
}) {
  const utils = api.useUtils();
  const [rows, setRows] = useState<VariantRowValues[]>(() => variants.map(toRow));
  const [read, setRead] = useState(variants);
  // The variants read again (after a save, or a change elsewhere): edits not yet saved are kept.
  // Adjusted while rendering, as React advises for state that follows a prop.
  if (variants !== read) {
    setRead(variants);
    setRows(mergeRows(rows, read, variants));
  }
  const [bulk, setBulk] = useState({ price: "", stock: "" });
  const [error, setError] = useState<string | null>(null);
  const save = api.adminProducts.saveVariants.useMutation({
    onSuccess: ({ message }) => {
      show(message, "success");
      void utils.adminProducts.variants.invalidate({ id: productId });
      void utils.adminProducts.list.invalidate();
    },
    onError: (failure) => setError(failure.message || v.saveFailed),
  });

  const change = (id: string, patch: Partial<VariantRowValues>) => setRows((current) => current.map((row) => (row.id === id ? { ...row, ...patch } : row)));

  function submit(event: React.FormEvent) {
    event.preventDefault();
    const parsed = saveVariantsInput.safeParse({
      productId,
      variants: rows.map((row) => ({
        id: row.id,
        sku: row.sku,
        price: row.price.trim(),
        available: row.available,
        stock: count(row.stock),
        stockWas: row.stockWas,
        lowStockAt: count(row.lowStockAt),
        pictureId: row.pictureId || null,
      })),
    });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? v.saveFailed);
      return;
    }
    setError(null);
    save.mutate(parsed.data);
  }

  return (
    <form onSubmit={submit} className="space-y-3" aria-label="Variants">
      <h3 className="font-semibold">Variants and stock</h3>
      <p className="text-sm text-muted">Leave the price empty for the product&apos;s price ({formatRand(basePrice)}), and the stock empty not to count it.</p>
      <div className="flex flex-wrap items-end gap-2 text-sm">
        <label className="font-medium">
          Price for all
          <input className={GRID_INPUT} inputMode="decimal" value={bulk.price} onChange={(event) => setBulk({ ...bulk, price: event.target.value })} />
        </label>
        <Button variant="outline" onClick={() => setRows((current) => current.map((row) => ({ ...row, price: bulk.price })))}>
          Set all prices
        </Button>
        <label className="font-medium">
          Stock for all
          <input className={GRID_INPUT} inputMode="numeric" value={bulk.stock} onChange={(event) => setBulk({ ...bulk, stock: event.target.value })} />
        </label>
        <Button variant="outline" onClick={() => setRows((current) => current.map((row) => ({ ...row, stock: bulk.stock })))}>
          Set all stock
        </Button>
      </div>
      <div className="overflow-x-auto">
        <table className="w-full min-w-[36rem] text-left text-sm">
          <thead>
            <tr className="text-muted">
              <th className="py-1 pr-2 font-medium">Variant</th>
              <th className="py-1 pr-2 font-medium">SKU</th>
              <th className="py-1 pr-2 font-medium">Price (R)</th>
              <th className="py-1 pr-2 font-medium">Stock</th>
              <th className="py-1 pr-2 font-medium">Low at</th>
              {pictures.length > 1 ? <th className="py-1 pr-2 font-medium">Picture</th> : null}
              <th className="py-1 font-medium">Available</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <VariantRow key={row.id} row={row} basePrice={basePrice} pictures={pictures} change={(patch) => change(row.id, patch)} />
            ))}
          </tbody>
        </table>
      </div>
      {error ? (
        <p role="alert" className="text-sm text-danger">
          {error}
        </p>
      ) : null}
      <Button type="submit" disabled={save.isPending}>
        {save.isPending ? "Saving..." : "Save variants"}
      </Button>
    </form>
  );
}
