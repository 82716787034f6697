import { z } from "@/lib/zod";
import { MAX_PRODUCT_PAGE, MAX_PRODUCTS_PER_CALL, PRODUCT_SORTS } from "@/lib/constants";

export const listProductsInput = z
  .object({
    category: z.string().trim().max(60).optional(),
    search: z.string().trim().max(100).optional(),
    sort: z.enum(PRODUCT_SORTS).optional(),
    /** 1-based page of `perPage` products (default PRODUCTS_PER_PAGE). */
    page: z.number().int().min(1).max(MAX_PRODUCT_PAGE).optional(),
    perPage: z.number().int().min(1).max(MAX_PRODUCTS_PER_CALL).optional(),
  })
  .optional();
export type ListProductsInput = z.infer<typeof listProductsInput>;

/** Any short string: a malformed id is answered 'Product not found.', not a validation error. */
export const productLookupInput = z.object({ id: z.string().trim().max(100) });
export type ProductLookupInput = z.infer<typeof productLookupInput>;
