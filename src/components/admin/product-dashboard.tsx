"use client";

import Image from "next/image";
import { useRef, useState } from "react";
import { formatRand } from "@/lib/money";
import { messages } from "@/lib/messages";
import { createProductInput, updateProductInput } from "@/server/products/schemas";
import { api } from "@/trpc/react";
import { FileInput } from "@/components/ui/file-input";
import { Button } from "@/components/ui/button";
import { TextAreaField, TextField } from "@/components/ui/form-field";
import { StatusMessage } from "@/components/ui/status-message";
import { useFlashMessage } from "@/components/ui/use-flash-message";

const m = messages.admin;

interface EditableProduct {
  id: string;
  name: string;
  description: string;
  priceText: string;
  categoryId: string;
}

/** Adds a product, or edits one when `product` is given (a new image is then optional). */
function ProductForm({ product, onDone, show }: { product?: EditableProduct; onDone: () => void; show: ReturnType<typeof useFlashMessage>["show"] }) {
  const utils = api.useUtils();
  const categories = api.adminProducts.categories.useQuery();
  const [newCategory, setNewCategory] = useState("");
  const [categoryId, setCategoryId] = useState(product?.categoryId ?? "");
  const formRef = useRef<HTMLFormElement>(null);
  const addCategory = api.adminProducts.addCategory.useMutation({
    onSuccess: ({ category, message }) => {
      show(message, "success");
      setNewCategory("");
      setCategoryId(category.id);
      void utils.adminProducts.categories.invalidate();
    },
    onError: (error) => show(error.message || m.addCategoryFailed, "error"),
  });
  const create = api.adminProducts.create.useMutation({
    onSuccess: ({ message }) => {
      show(message, "success");
      formRef.current?.reset();
      setCategoryId("");
      void utils.adminProducts.list.invalidate();
      onDone();
    },
    onError: (error) => show(error.message || m.addProductFailed, "error"),
  });

  const update = api.adminProducts.update.useMutation({
    onSuccess: ({ message }) => {
      show(message, "success");
      void utils.adminProducts.list.invalidate();
      onDone();
    },
    onError: (error) => show(error.message || m.updateProductFailed, "error"),
  });
  const pending = create.isPending || update.isPending;

  function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return; // a second submit while submitting is ignored
    const form = new FormData(event.currentTarget);
    form.set("categoryId", categoryId);
    if (product) form.set("id", product.id);
    // The procedure's own schema, so the form says what the server would, before sending.
    const checked = (product ? updateProductInput : createProductInput).safeParse(form);
    if (!checked.success) return show(checked.error.issues[0]?.message ?? m.productRequired, "error");
    if (product) update.mutate(form);
    else create.mutate(form);
  }

  return (
    <form
      ref={formRef}
      onSubmit={submit}
      noValidate
      className="grid gap-4 rounded-2xl border border-line bg-white p-6 md:grid-cols-2"
      aria-label={product ? `Edit ${product.name}` : "Add product"}
    >
      <TextField label="Name" name="name" maxLength={120} showCount disabled={pending} defaultValue={product?.name} />
      <TextField label="Price (Rands)" name="price" inputMode="decimal" placeholder="149.50" disabled={pending} defaultValue={product?.priceText} />
      <TextAreaField
        label="Description"
        id={`product-description-${product?.id ?? "new"}`}
        name="description"
        rows={3}
        maxLength={2000}
        className="md:col-span-2"
        disabled={pending}
        defaultValue={product?.description}
      />
      <div>
        <label htmlFor={`product-category-${product?.id ?? "new"}`} className="mb-1.5 block text-sm font-medium">
          Category
        </label>
        <select
          id={`product-category-${product?.id ?? "new"}`}
          value={categoryId}
          onChange={(e) => setCategoryId(e.target.value)}
          className="block w-full rounded-xl border border-line bg-white px-4 py-2.5"
          disabled={pending}
        >
          <option value="">Choose a category</option>
          {categories.data?.map((category) => (
            <option key={category.id} value={category.id}>
              {category.name}
            </option>
          ))}
        </select>
      </div>
      <div className="flex items-end gap-2">
        <TextField label="New category" value={newCategory} onChange={(e) => setNewCategory(e.target.value)} maxLength={60} className="flex-1" />
        <Button
          variant="outline"
          onClick={() => newCategory.trim() && addCategory.mutate({ name: newCategory })}
          disabled={addCategory.isPending}
        >
          + Add Category
        </Button>
      </div>
      <div className="md:col-span-2">
        <label htmlFor={`product-image-${product?.id ?? "new"}`} className="mb-1.5 block text-sm font-medium">
          {product ? "New image (optional)" : "Image"}
        </label>
        <FileInput id={`product-image-${product?.id ?? "new"}`} name="image" kind="image" disabled={pending} className="block w-full text-sm" />
      </div>
      <div className="md:col-span-2">
        <Button type="submit" disabled={pending}>
          {product ? (update.isPending ? "Saving..." : "Save changes") : create.isPending ? "Adding..." : "Add Product"}
        </Button>
      </div>
    </form>
  );
}

/** The admin dashboard: add products and categories; toggle availability; delete. */
export function ProductDashboard() {
  const utils = api.useUtils();
  const products = api.adminProducts.list.useQuery();
  const flash = useFlashMessage();
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<string | null>(null);
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
          {products.data.map((product) => (
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
                </p>
              </div>
              <div className="flex flex-wrap gap-2">
                <Button variant="outline" onClick={() => setEditing(editing === product.id ? null : product.id)} aria-expanded={editing === product.id}>
                  {editing === product.id ? "Close" : "Edit"}<span className="sr-only"> {product.name}</span>
                </Button>
                <Button
                  variant="outline"
                  onClick={() => setAvailability.mutate({ id: product.id, available: !product.available })}
                  disabled={setAvailability.isPending}
                >
                  {product.available ? "Set Unavailable" : "Set Available"}<span className="sr-only"> {product.name}</span>
                </Button>
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
                </div>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
