import "server-only";

import { unstable_cache } from "next/cache";
import { CACHE_TAGS } from "@/lib/cache-tags";
import { PRODUCTS_PER_PAGE } from "@/lib/constants";
import { ANON, runAs } from "@/server/db/as-caller";
import { getDatabase } from "@/server/db";
import type { CatalogueReads } from "./catalogue-reads";
import type { ListProductsInput } from "./catalogue-schemas";
import { findProduct, isUuid, listCategoryNames, listProductIds, listProducts, relatedProducts, type CatalogueProduct } from "./catalogue-queries";

/**
 * The storefront's catalogue reads, cached across requests and revalidated (tag 'catalogue')
 * whenever an admin changes the catalogue. They run as `anon`: what a visitor may see is the
 * same for everyone, so one cached copy serves all.
 *
 * Only a bounded set of reads is cached, because each distinct one is kept in memory and on disk
 * (in memory, see next.config.ts): the category tabs' first pages, a page at most long, and the
 * catalogue's own products. Searches, deep or long pages, unknown categories and unknown ids
 * read the database each time, so a caller cannot grow the cache, or push the shop's own pages
 * out of it, by inventing URLs.
 */
async function asVisitor<T>(work: Parameters<typeof runAs<T>>[2]): Promise<T> {
  const database = await getDatabase();
  return runAs(database.kysely, ANON, work);
}

const options = { tags: [CACHE_TAGS.catalogue] };

/** How many pages of each category's listing are cached; later pages are rarely visited. */
export const CACHED_PAGES = 5;

const cachedProducts = unstable_cache(
  (input: ListProductsInput, limit?: number) => asVisitor((trx) => listProducts(trx, input, limit)),
  ["catalogue:list"],
  options,
);
const cachedProductIds = unstable_cache(() => asVisitor((trx) => listProductIds(trx)), ["catalogue:ids"], options);
const cachedProduct = unstable_cache((id: string) => asVisitor((trx) => findProduct(trx, id)), ["catalogue:product"], options);
const cachedRelated = unstable_cache((id: string) => asVisitor((trx) => relatedProducts(trx, id)), ["catalogue:related"], options);

export const getCategoryNames = unstable_cache(() => asVisitor((trx) => listCategoryNames(trx)), ["catalogue:categories"], options);

async function isKnownProduct(id: string): Promise<boolean> {
  return isUuid(id) && (await cachedProductIds()).includes(id.toLowerCase());
}

export async function getProducts(input: ListProductsInput = {}, limit?: number): Promise<CatalogueProduct[]> {
  const bounded =
    !input.search &&
    (input.page ?? 1) <= CACHED_PAGES &&
    (input.perPage ?? PRODUCTS_PER_PAGE) <= PRODUCTS_PER_PAGE &&
    (!input.category || (await getCategoryNames()).includes(input.category));
  return bounded ? cachedProducts(input, limit) : asVisitor((trx) => listProducts(trx, input, limit));
}

export async function getProduct(id: string): Promise<CatalogueProduct | undefined> {
  return (await isKnownProduct(id)) ? cachedProduct(id.toLowerCase()) : undefined;
}

export async function getRelatedProducts(id: string): Promise<CatalogueProduct[]> {
  return (await isKnownProduct(id)) ? cachedRelated(id.toLowerCase()) : asVisitor((trx) => relatedProducts(trx, id));
}

/** The same reads for the HTTP API (catalogue.* procedures). */
export const cachedCatalogueReads: CatalogueReads = {
  list: (input) => getProducts(input),
  categories: () => getCategoryNames(),
  product: getProduct,
  related: getRelatedProducts,
};
