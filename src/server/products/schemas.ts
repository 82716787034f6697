import { z } from "@/lib/zod";
import { messages } from "@/lib/messages";

const m = messages.admin;

export const categoryNameInput = z.object({
  name: z.string().trim().min(1, "Please enter a category name.").max(60, "A category name can be at most 60 characters."),
});

/** A rand amount as typed: digits with at most two decimals, more than zero. */
export const priceText = z
  .string()
  .trim()
  .regex(/^\d{1,10}(\.\d{1,2})?$/, m.priceInvalid)
  .refine((value) => Number(value) > 0, m.priceInvalid);

/** Add product (multipart: the image is a file). */
export const createProductInput = z
  .instanceof(FormData)
  .transform((form) => ({
    name: form.get("name"),
    description: form.get("description") ?? "",
    price: form.get("price"),
    categoryId: form.get("categoryId"),
    image: form.get("image"),
  }))
  .superRefine((values, ctx) => {
    const missing =
      typeof values.name !== "string" ||
      !values.name.trim() ||
      typeof values.price !== "string" ||
      !values.price.trim() ||
      typeof values.categoryId !== "string" ||
      !values.categoryId ||
      !(values.image instanceof File) ||
      (values.image.size === 0 && values.image.name === "");
    if (missing) ctx.addIssue({ code: "custom", message: m.productRequired });
  })
  .pipe(
    z.object({
      name: z.string().trim().max(120, "A product name can be at most 120 characters."),
      description: z.string().trim().max(2000, "A description can be at most 2000 characters."),
      price: priceText,
      categoryId: z.uuid(m.productRequired),
      image: z.instanceof(File),
    }),
  );

export const productIdInput = z.object({ id: z.uuid("Unknown product.") });
export const availabilityInput = productIdInput.extend({ available: z.boolean() });

/** Edit product (multipart): the same rules as adding, but a new image is optional. */
export const updateProductInput = z
  .instanceof(FormData)
  .transform((form) => ({
    id: form.get("id"),
    name: form.get("name"),
    description: form.get("description") ?? "",
    price: form.get("price"),
    categoryId: form.get("categoryId"),
    image: form.get("image"),
  }))
  .superRefine((values, ctx) => {
    const missing =
      typeof values.name !== "string" || !values.name.trim() || typeof values.price !== "string" || !values.price.trim() || typeof values.categoryId !== "string" || !values.categoryId;
    if (missing) ctx.addIssue({ code: "custom", message: messages.admin.productUpdateRequired });
  })
  .pipe(
    z.object({
      id: z.uuid("Unknown product."),
      name: z.string().trim().max(120, "A product name can be at most 120 characters."),
      description: z.string().trim().max(2000, "A description can be at most 2000 characters."),
      price: priceText,
      categoryId: z.uuid(messages.admin.productUpdateRequired),
      image: z
        .custom<File | null>((value) => value === null || value instanceof File)
        .transform((file) => (file && (file.size > 0 || file.name !== "") ? file : null)),
    }),
  );
