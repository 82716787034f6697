import type { ScopedDb } from "@/server/db/as-caller";
import type { ListProductsInput } from "./catalogue-schemas";
import { findProduct, listCategoryNames, listProducts, relatedProducts, type CatalogueProduct } from "./catalogue-queries";

/**
 * The catalogue as the storefront reads it. Every product is readable by everyone (RLS
 * "products: read all"), so any caller gets the same answers; the HTTP API serves them from the
 * shared catalogue cache (cached-catalogue.ts), tests and scripts read the database directly.
 */
export interface CatalogueReads {
  list(input?: ListProductsInput): Promise<CatalogueProduct[]>;
  categories(): Promise<string[]>;
  product(id: string): Promise<CatalogueProduct | undefined>;
  related(id: string): Promise<CatalogueProduct[]>;
}

/** Reads straight from the database, as the caller `db` runs as. */
export function directCatalogueReads(db: ScopedDb): CatalogueReads {
  return {
    list: (input) => db.transaction((trx) => listProducts(trx, input)),
    categories: () => db.transaction((trx) => listCategoryNames(trx)),
    product: (id) => db.transaction((trx) => findProduct(trx, id)),
    related: (id) => db.transaction((trx) => relatedProducts(trx, id)),
  };
}
