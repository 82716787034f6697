import { QUOTE_MODES } from "@/lib/statuses";
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

/** adminProducts.setQuoteMode: "Request a quote" not offered, beside Add to Cart, or instead of it. */
export const quoteModeInput = productIdInput.extend({ quoteMode: z.enum(QUOTE_MODES) });

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

const v = messages.admin.variants;

/** One option as the admin types it: a name and its choices, in order. */
const optionInput = z.object({
  name: z.string().trim().min(1, v.optionNameRequired).max(40, v.optionNameTooLong),
  choices: z
    .array(z.string().trim().min(1, v.choicesRequired).max(40, v.choiceTooLong))
    .min(1, v.choicesRequired)
    .max(30, v.tooManyChoices)
    .refine((choices) => new Set(choices.map((choice) => choice.toLowerCase())).size === choices.length, v.choicesDistinct),
});

/** A product's options (none: the product is sold as one variant). */
export const saveOptionsInput = z.object({
  productId: z.uuid("Unknown product."),
  options: z
    .array(optionInput)
    .max(3, v.tooManyOptions)
    .refine((options) => new Set(options.map((option) => option.name.toLowerCase())).size === options.length, v.optionNamesDistinct)
    .refine((options) => options.reduce((count, option) => count * option.choices.length, 1) <= 100, v.tooManyVariants),
});
export type SaveOptionsInput = z.infer<typeof saveOptionsInput>;

/** Whole units from 0 to 1,000,000, or null (not counted / no mark). */
const stockCount = z.number({ error: v.stockInvalid }).int(v.stockInvalid).min(0, v.stockInvalid).max(1_000_000, v.stockInvalid).nullable();

/** The variants' own values, as the grid edits them (all of a product's at once, or some). */
export const saveVariantsInput = z.object({
  productId: z.uuid("Unknown product."),
  variants: z
    .array(
      z.object({
        id: z.uuid(v.variantUnknown),
        sku: z.string().trim().max(64, v.skuInvalid).transform((sku) => sku || null).nullable(),
        /** Empty: the product's price. */
        price: z.union([priceText, z.literal("").transform(() => null)]).nullable(),
        available: z.boolean(),
        stock: stockCount,
        /** The stock as the grid read it: a stock that changed since (an order took some) is not overwritten. */
        stockWas: stockCount,
        lowStockAt: stockCount,
        /** One of the product's pictures (admin's pictures list), or null: the product's card picture. */
        pictureId: z.uuid(v.pictureUnknown).nullable(),
      }),
    )
    .min(1)
    .max(100),
});
export type SaveVariantsInput = z.infer<typeof saveVariantsInput>;

/** A product's personalisation fields, in order (none: the product asks for nothing). */
export const savePersonalisationInput = z.object({
  productId: z.uuid("Unknown product."),
  fields: z
    .array(
      z
        .object({
          /** An existing field keeps its id (lines in carts still name it). */
          id: z.uuid(v.variantUnknown).optional(),
          label: z.string().trim().min(1, v.fieldLabelRequired).max(60, v.fieldLabelTooLong),
          kind: z.enum(["text", "file"]),
          required: z.boolean(),
          /** Text only: 1 to 500 characters. */
          maxLength: z.number({ error: v.fieldLengthInvalid }).int(v.fieldLengthInvalid).min(1, v.fieldLengthInvalid).max(500, v.fieldLengthInvalid).nullable(),
          /** Empty (null): free. */
          price: z.union([priceText, z.literal("").transform(() => null)]).nullable(),
        })
        .refine((field) => (field.kind === "text") === (field.maxLength !== null), { message: v.fieldLengthInvalid, path: ["maxLength"] }),
    )
    .max(5, v.tooManyFields),
});
export type SavePersonalisationInput = z.infer<typeof savePersonalisationInput>;
