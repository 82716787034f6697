"use client";

import { useRouter, useSearchParams } from "next/navigation";
import { PRODUCT_SORTS, type ProductSort } from "@/lib/constants";

const SORT_LABELS: Record<ProductSort, string> = {
  newest: "Newest first",
  "price-asc": "Price: low to high",
  "price-desc": "Price: high to low",
};

/**
 * Search and sort for /products, kept in the URL. A plain GET form, so it works before (and
 * without) JavaScript; the sort applies as soon as it changes once scripts run.
 */
export function CatalogueControls({ category, search, sort }: { category?: string; search?: string; sort: ProductSort }) {
  const router = useRouter();
  const params = useSearchParams();

  function applySort(next: string) {
    const query = new URLSearchParams(params.toString());
    if (next === "newest") query.delete("sort");
    else query.set("sort", next);
    router.push(`/products${query.size ? `?${query}` : ""}`);
  }

  return (
    <form action="/products" method="get" role="search" className="flex flex-col gap-3 sm:flex-row sm:items-end">
      {category ? <input type="hidden" name="category" value={category} /> : null}
      <div className="flex-1">
        <label htmlFor="product-search" className="mb-1.5 block text-sm font-medium">
          Search products
        </label>
        <div className="flex gap-2">
          <input
            id="product-search"
            name="q"
            type="search"
            defaultValue={search}
            maxLength={100}
            placeholder="e.g. pies, cleaning, golf shirt"
            className="block w-full rounded-xl border border-line bg-white px-4 py-2.5"
          />
          <button type="submit" className="rounded-xl bg-brand-700 px-4 text-sm font-semibold text-white hover:bg-brand-800">
            Search
          </button>
        </div>
      </div>
      <div>
        <label htmlFor="product-sort" className="mb-1.5 block text-sm font-medium">
          Sort by
        </label>
        <select
          id="product-sort"
          name="sort"
          defaultValue={sort}
          onChange={(event) => applySort(event.target.value)}
          className="block w-full rounded-xl border border-line bg-white px-4 py-2.5 sm:w-56"
        >
          {PRODUCT_SORTS.map((value) => (
            <option key={value} value={value}>
              {SORT_LABELS[value]}
            </option>
          ))}
        </select>
      </div>
    </form>
  );
}
