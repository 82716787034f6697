"use client";

import { useRef, useState } from "react";
import { messages } from "@/lib/messages";
import { createProductInput, updateProductInput } from "@/server/products/schemas";
import { api } from "@/trpc/react";
import { FileInput } from "@/components/ui/file-input";
import { Button } from "@/components/ui/button";
import { TextAreaField, TextField } from "@/components/ui/form-field";
import type { useFlashMessage } from "@/components/ui/use-flash-message";

const m = messages.admin;

export interface EditableProduct {
  id: string;
  name: string;
  description: string;
  priceText: string;
  categoryId: string;
}

/** Adds a product, or edits one when `product` is given (a new image is then optional). */
export function ProductForm({ product, onDone, show }: { product?: EditableProduct; onDone: () => void; show: ReturnType<typeof useFlashMessage>["show"] }) {
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
