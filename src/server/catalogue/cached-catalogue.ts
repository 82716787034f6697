import "server-only";

import { unstable_cache } from "next/cache";
import { CACHE_TAGS } from "@/lib/cache-tags";
import { ANON, runAs } from "@/server/db/as-caller";
import { getDatabase } from "@/server/db";
import type { ListProductsInput } from "./catalogue-schemas";
import { findProduct, listCategoryNames, listProducts, relatedProducts } from "./catalogue-queries";

/**
 * The storefront's catalogue reads, cached across requests and revalidated (tag 'catalogue')
 * whenever an admin changes the catalogue. They run as `anon`: what a visitor may see is the
 * same for everyone, so one cached copy serves all.
 */
async function asVisitor<T>(work: Parameters<typeof runAs<T>>[2]): Promise<T> {
  const database = await getDatabase();
  return runAs(database.kysely, ANON, work);
}

const options = { tags: [CACHE_TAGS.catalogue] };

export const getProducts = unstable_cache(
  (input: ListProductsInput, limit?: number) => asVisitor((trx) => listProducts(trx, input, limit)),
  ["catalogue:list"],
  options,
);

export const getCategoryNames = unstable_cache(() => asVisitor((trx) => listCategoryNames(trx)), ["catalogue:categories"], options);

export const getProduct = unstable_cache((id: string) => asVisitor((trx) => findProduct(trx, id)), ["catalogue:product"], options);

export const getRelatedProducts = unstable_cache(
  (id: string) => asVisitor((trx) => relatedProducts(trx, id)),
  ["catalogue:related"],
  options,
);
