import { z } from "zod";
import { PRODUCT_SORTS } from "@/lib/constants";

export { PRODUCT_SORTS, type ProductSort } from "@/lib/constants";

export const listProductsInput = z
  .object({
    category: z.string().trim().max(60).optional(),
    search: z.string().trim().max(100).optional(),
    sort: z.enum(PRODUCT_SORTS).optional(),
  })
  .optional();
export type ListProductsInput = z.infer<typeof listProductsInput>;

/** Any short string: a malformed id is answered 'Product not found.', not a validation error. */
export const productIdInput = z.object({ id: z.string().trim().max(100) });
