"use client";

import Image from "next/image";
import { useState } from "react";
import { formatRand } from "@/lib/money";
import { messages } from "@/lib/messages";
import { api } from "@/trpc/react";
import { Button } from "@/components/ui/button";
import { StatusMessage } from "@/components/ui/status-message";
import { useFlashMessage } from "@/components/ui/use-flash-message";
import { ProductForm } from "./product-form";
import { ProductPictures } from "./product-pictures";
import { VariantsPanel } from "./variants-panel";
import { QuoteModeSelect } from "./quote-mode-select";
import { BookingPanel } from "./booking-panel";

const m = messages.admin;

type StockFilter = "all" | "low" | "soldOut";

/** The admin dashboard: add products and categories; toggle availability; delete. */
export function ProductDashboard() {
  const utils = api.useUtils();
  const products = api.adminProducts.list.useQuery();
  const flash = useFlashMessage();
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<string | null>(null);
  const [stockOf, setStockOf] = useState<string | null>(null);
  const [bookingOf, setBookingOf] = useState<string | null>(null);
  const [filter, setFilter] = useState<StockFilter>("all");
  const shown = (products.data ?? []).filter((product) => filter === "all" || (filter === "soldOut" ? product.soldOut : product.lowStock || product.soldOut));
  const setAvailability = api.adminProducts.setAvailability.useMutation({
    onSuccess: ({ message }) => flash.show(message, "success"),
    onError: (error) => flash.show(error.message || m.updateAvailabilityFailed, "error"),
    onSettled: () => utils.adminProducts.list.invalidate(),
  });
  const remove = api.adminProducts.delete.useMutation({
    onSuccess: ({ message }) => flash.show(message, "success"),
    onError: (error) => flash.show(error.message || m.deleteProductFailed, "error"),
    onSettled: () => utils.adminProducts.list.invalidate(),
  });

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center gap-3">
        <Button variant={adding ? "outline" : "primary"} onClick={() => setAdding((v) => !v)} aria-expanded={adding}>
          {adding ? "Cancel" : "Add Product +"}
        </Button>
      </div>
      {adding ? <ProductForm onDone={() => setAdding(false)} show={flash.show} /> : null}
      <label className="flex items-center gap-2 text-sm font-medium">
        Show
        <select className="rounded-xl border border-line bg-white px-3 py-2" value={filter} onChange={(event) => setFilter(event.target.value as StockFilter)}>
          <option value="all">All products</option>
          <option value="low">Low or sold out</option>
          <option value="soldOut">Sold out</option>
        </select>
      </label>
      <StatusMessage message={flash.message} />

      {products.isPending ? (
        <p role="status">{m.loadingProducts}</p>
      ) : products.isError ? (
        <p role="alert" className="text-danger">
          {m.fetchProductsFailed}
        </p>
      ) : products.data.length === 0 ? (
        <p className="text-muted">{m.noProducts}</p>
      ) : (
        <ul className="divide-y divide-line rounded-2xl border border-line bg-white" aria-label="Products">
          {shown.map((product) => (
            <li key={product.id} className="p-4">
              <div className="flex flex-col gap-4 sm:flex-row sm:items-center">
              <div className="relative aspect-[4/3] w-28 shrink-0 overflow-hidden rounded-lg bg-brand-50">
                {product.imageUrl ? (
                  <Image src={product.imageUrl} alt={product.name} fill sizes="112px" unoptimized={product.imageUrl.endsWith(".svg")} className="object-cover" />
                ) : null}
              </div>
              <div className="min-w-0 flex-1">
                <p className="font-semibold">{product.name}</p>
                <p className="line-clamp-2 text-sm text-muted">{product.description}</p>
                <p className="mt-1 text-sm">
                  <span className="tabular font-semibold">{formatRand(product.price)}</span> · {product.category} ·{" "}
                  <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${product.available ? "bg-green-100 text-success" : "bg-red-100 text-danger"}`}>
                    {product.available ? "Available" : "Unavailable"}
                  </span>
                  {product.variantCount > 1 ? ` · ${product.variantCount} variants` : null}
                  {product.stock !== null ? (
                    <span className={product.soldOut ? "font-semibold text-danger" : product.lowStock ? "font-semibold text-accent-700" : ""}>
                      {` · ${product.stock} in stock${product.soldOut ? " (sold out)" : product.lowStock ? " (low)" : ""}`}
                    </span>
                  ) : null}
                </p>
              </div>
              <div className="flex flex-wrap gap-2">
                <Button variant="outline" onClick={() => setEditing(editing === product.id ? null : product.id)} aria-expanded={editing === product.id}>
                  {editing === product.id ? "Close" : "Edit"}<span className="sr-only"> {product.name}</span>
                </Button>
                <Button variant="outline" onClick={() => setStockOf(stockOf === product.id ? null : product.id)} aria-expanded={stockOf === product.id}>
                  Options and stock<span className="sr-only"> of {product.name}</span>
                </Button>
                <Button variant="outline" onClick={() => setBookingOf(bookingOf === product.id ? null : product.id)} aria-expanded={bookingOf === product.id}>
                  Booking<span className="sr-only"> of {product.name}</span>
                </Button>
                <Button
                  variant="outline"
                  onClick={() => setAvailability.mutate({ id: product.id, available: !product.available })}
                  disabled={setAvailability.isPending}
                >
                  {product.available ? "Set Unavailable" : "Set Available"}<span className="sr-only"> {product.name}</span>
                </Button>
                <QuoteModeSelect product={product} show={flash.show} />
                <Button
                  variant="danger"
                  onClick={() => window.confirm(m.deleteConfirm(product.name)) && remove.mutate({ id: product.id })}
                  disabled={remove.isPending}
                >
                  Delete<span className="sr-only"> {product.name}</span>
                </Button>
              </div>
              </div>
              {editing === product.id ? (
                <div className="mt-4">
                  <ProductForm product={product} onDone={() => setEditing(null)} show={flash.show} />
                  {/* Its pictures with it: no further button on every row of the list. */}
                  <div className="mt-4">
                    <ProductPictures productId={product.id} productName={product.name} show={flash.show} />
                  </div>
                </div>
              ) : null}
              {stockOf === product.id ? (
                <div className="mt-4">
                  <VariantsPanel productId={product.id} show={flash.show} />
                </div>
              ) : null}
              {bookingOf === product.id ? (
                <div className="mt-4">
                  <BookingPanel productId={product.id} show={flash.show} />
                </div>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
