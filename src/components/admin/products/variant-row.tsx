"use client";

import { messages } from "@/lib/messages";
import type { AdminVariant } from "@/server/products/product-queries";
import { variantLabel } from "@/lib/variants";

const v = messages.admin.variants;
export const GRID_INPUT = "block w-full min-w-0 rounded-lg border border-line bg-white px-2 py-1.5 text-sm text-ink";

/** A variant as typed in the grid: numbers stay text until saved (empty: the product's price, stock not counted). */
export interface VariantRowValues {
  id: string;
  label: string;
  sku: string;
  price: string;
  available: boolean;
  stock: string;
  /** The stock as last read from the shop: saving changes it only if it is still this. */
  stockWas: number | null;
  lowStockAt: string;
  pictureId: string;
}

export const toRow = (variant: AdminVariant): VariantRowValues => ({
  id: variant.id,
  label: variantLabel(variant.optionValues, "The product"),
  sku: variant.sku ?? "",
  price: variant.price ?? "",
  available: variant.available,
  stock: variant.stock === null ? "" : String(variant.stock),
  stockWas: variant.stock,
  lowStockAt: variant.lowStockAt === null ? "" : String(variant.lowStockAt),
  pictureId: variant.pictureId ?? "",
});

const same = (a: string, b: string) => a.trim() === b.trim() || (a.trim() !== "" && b.trim() !== "" && Number(a) === Number(b));

/** Whether two rows say the same (prices and counts compared as numbers: "199" is "199.00"). */
export function sameValues(a: VariantRowValues, b: VariantRowValues): boolean {
  return a.sku.trim() === b.sku.trim() && same(a.price, b.price) && a.available === b.available && same(a.stock, b.stock) && same(a.lowStockAt, b.lowStockAt) && a.pictureId === b.pictureId;
}

/**
 * The grid's rows after the shop's variants were read again (after a save, or another change):
 * a row the admin has not touched since the last read, or that says what was saved, takes the new
 * values; one with edits not yet saved keeps them (and the stock it was read with, so saving a
 * stock that changed meanwhile is refused rather than undoing an order).
 */
export function mergeRows(typed: VariantRowValues[], before: AdminVariant[], after: AdminVariant[]): VariantRowValues[] {
  return after.map((variant) => {
    const fresh = toRow(variant);
    const row = typed.find((candidate) => candidate.id === variant.id);
    const old = before.find((candidate) => candidate.id === variant.id);
    if (!row || !old || sameValues(row, toRow(old)) || sameValues(row, fresh)) return fresh;
    return row;
  });
}

export function VariantRow({ row, basePrice, pictures, change }: { row: VariantRowValues; basePrice: string; pictures: { id: string; alt: string; position: number }[]; change: (patch: Partial<VariantRowValues>) => void }) {
  return (
    <tr className="border-t border-line">
      <th scope="row" className="py-1.5 pr-2 font-medium">
        {row.label}
      </th>
      <td className="py-1.5 pr-2">
        <input aria-label={`SKU of ${row.label}`} className={GRID_INPUT} maxLength={64} value={row.sku} onChange={(event) => change({ sku: event.target.value })} />
      </td>
      <td className="py-1.5 pr-2">
        <input aria-label={`Price of ${row.label}`} className={GRID_INPUT} inputMode="decimal" placeholder={basePrice} value={row.price} onChange={(event) => change({ price: event.target.value })} />
      </td>
      <td className="py-1.5 pr-2">
        <input aria-label={`Stock of ${row.label}`} data-stock-read={row.stockWas ?? ""} className={GRID_INPUT} inputMode="numeric" placeholder="not counted" value={row.stock} onChange={(event) => change({ stock: event.target.value })} />
      </td>
      <td className="py-1.5 pr-2">
        <input aria-label={`Low stock mark of ${row.label}`} className={GRID_INPUT} inputMode="numeric" value={row.lowStockAt} onChange={(event) => change({ lowStockAt: event.target.value })} />
      </td>
      {pictures.length > 1 ? (
        <td className="py-1.5 pr-2">
          <select aria-label={`Picture of ${row.label}`} className={GRID_INPUT} value={row.pictureId} onChange={(event) => change({ pictureId: event.target.value })}>
            <option value="">{v.pictureNone}</option>
            {pictures.map((picture) => (
              <option key={picture.id} value={picture.id}>
                {`${picture.position}. ${picture.alt}`}
              </option>
            ))}
          </select>
        </td>
      ) : null}
      <td className="py-1.5">
        <input aria-label={`${row.label} available`} type="checkbox" className="h-5 w-5" checked={row.available} onChange={(event) => change({ available: event.target.checked })} />
      </td>
    </tr>
  );
}
