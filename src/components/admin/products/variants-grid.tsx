"use client";

import { useState } from "react";
import { messages } from "@/lib/messages";
import { formatRand } from "@/lib/money";
import { saveVariantsInput } from "@/server/products/schemas";
import type { AdminVariant } from "@/server/products/product-queries";
import { api } from "@/trpc/react";
import { Button } from "@/components/ui/button";
import type { useFlashMessage } from "@/components/ui/use-flash-message";

const v = messages.admin.variants;
const INPUT = "block w-full min-w-0 rounded-lg border border-line bg-white px-2 py-1.5 text-sm text-ink";

/** A row as typed: numbers stay text until saved (empty: the product's price, stock not counted). */
interface Row {
  id: string;
  label: string;
  sku: string;
  price: string;
  available: boolean;
  stock: string;
  lowStockAt: string;
}

const toRow = (variant: AdminVariant): Row => ({
  id: variant.id,
  label: variant.optionValues.join(" / ") || "The product",
  sku: variant.sku ?? "",
  price: variant.price ?? "",
  available: variant.available,
  stock: variant.stock === null ? "" : String(variant.stock),
  lowStockAt: variant.lowStockAt === null ? "" : String(variant.lowStockAt),
});

const count = (text: string) => (text.trim() === "" ? null : Number(text));

/**
 * Every variant in a grid: SKU, price (empty: the product's), available, stock (empty: not
 * counted) and the low-stock mark; "Set all" fills one column for every row. Saved all at once.
 */
export function VariantsGrid({ productId, basePrice, variants, show }: { productId: string; basePrice: string; variants: AdminVariant[]; show: ReturnType<typeof useFlashMessage>["show"] }) {
  const utils = api.useUtils();
  const [rows, setRows] = useState<Row[]>(() => variants.map(toRow));
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

  const change = (id: string, patch: Partial<Row>) => setRows((current) => current.map((row) => (row.id === id ? { ...row, ...patch } : row)));

  function submit(event: React.FormEvent) {
    event.preventDefault();
    const parsed = saveVariantsInput.safeParse({
      productId,
      variants: rows.map((row) => ({ id: row.id, sku: row.sku, price: row.price.trim(), available: row.available, stock: count(row.stock), lowStockAt: count(row.lowStockAt) })),
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
          <input className={INPUT} inputMode="decimal" value={bulk.price} onChange={(event) => setBulk({ ...bulk, price: event.target.value })} />
        </label>
        <Button variant="outline" onClick={() => setRows((current) => current.map((row) => ({ ...row, price: bulk.price })))}>
          Set all prices
        </Button>
        <label className="font-medium">
          Stock for all
          <input className={INPUT} inputMode="numeric" value={bulk.stock} onChange={(event) => setBulk({ ...bulk, stock: event.target.value })} />
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
              <th className="py-1 font-medium">Available</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.id} className="border-t border-line">
                <th scope="row" className="py-1.5 pr-2 font-medium">
                  {row.label}
                </th>
                <td className="py-1.5 pr-2">
                  <input aria-label={`SKU of ${row.label}`} className={INPUT} maxLength={64} value={row.sku} onChange={(event) => change(row.id, { sku: event.target.value })} />
                </td>
                <td className="py-1.5 pr-2">
                  <input aria-label={`Price of ${row.label}`} className={INPUT} inputMode="decimal" placeholder={basePrice} value={row.price} onChange={(event) => change(row.id, { price: event.target.value })} />
                </td>
                <td className="py-1.5 pr-2">
                  <input aria-label={`Stock of ${row.label}`} className={INPUT} inputMode="numeric" placeholder="not counted" value={row.stock} onChange={(event) => change(row.id, { stock: event.target.value })} />
                </td>
                <td className="py-1.5 pr-2">
                  <input aria-label={`Low stock mark of ${row.label}`} className={INPUT} inputMode="numeric" value={row.lowStockAt} onChange={(event) => change(row.id, { lowStockAt: event.target.value })} />
                </td>
                <td className="py-1.5">
                  <input aria-label={`${row.label} available`} type="checkbox" className="h-5 w-5" checked={row.available} onChange={(event) => change(row.id, { available: event.target.checked })} />
                </td>
              </tr>
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
