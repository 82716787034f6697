import { PRODUCTS_PER_PAGE } from "@/lib/constants";
import { KeptValues } from "@/server/cache/kept-values";
import { perDatabase } from "@/server/cache/per-database";
import { CATALOGUE_CHANNEL } from "@/server/db/channels";
import { ANON, runAs, type Tx } from "@/server/db/as-caller";
import type { ShopDatabase } from "@/server/db/database";
import { dropKeptPages } from "@/server/kept-pages/kept-store";
import type { PublicUrl } from "@/server/ports/storage";
import type { ListProductsInput } from "./schemas";
import { findProduct, findProductChoices, isUuid, listCategoryNames, listProductIds, listProducts, relatedProducts, type CatalogueProduct, type CatalogueProductDetail } from "./catalogue-queries";
import { findProductPictures, type ProductPicture } from "./picture-queries";

/** How many pages of each category's listing are cached; later pages are rarely visited. */
export const CACHED_PAGES = 5;
/** A cached read is read again after this long, even if no change was heard (a lost notification). */
export const CACHE_TTL_MS = 60_000;
/**
 * How many reads are cached at most (the least recently used go first): more than the bounded
 * reads below come to for a shop of a few dozen categories and a few thousand products.
 */
export const CACHED_READS = 20_000;

/**
 * The storefront's catalogue: the one read path for pages, the sitemap, the catalogue.*
 * procedures and (through the pages) the visitors' kept HTML (docs/architecture.md#caches-and-several-processes). The shop's
 * settings, which the same pages show, are settings/shop-settings.ts's.
 *
 * Reads run as `anon`: what a visitor may see is the same for everyone, so one cached copy serves
 * all. The cache is this process's memory and starts empty with each start; it is dropped, with
 * the kept visitor pages, on every catalogue change any process makes (Postgres NOTIFY on
 * 'catalogue_changes', in-process for PGlite) and at once by the process that made it.
 *
 * Only a bounded set of reads is cached: the category tabs' first pages, a page at most long,
 * and the catalogue's own products. Searches, deep or long pages, unknown categories and unknown
 * ids read the database each time, so a caller cannot grow the cache by inventing URLs.
 */
export interface Catalogue {
  list(input?: ListProductsInput, limit?: number): Promise<CatalogueProduct[]>;
  categories(): Promise<string[]>;
  /** One product with its options and variants (its page). */
  product(id: string): Promise<CatalogueProductDetail | undefined>;
  related(id: string): Promise<CatalogueProduct[]>;
  /** One product's pictures, in the owner's order ([] for an id the shop does not have). */
  pictures(id: string): Promise<ProductPicture[]>;
  /** Drops this process's cached reads and kept visitor pages (after a change it made or heard of). */
  changed(): void;
}

function createCatalogue(database: ShopDatabase, publicUrl: PublicUrl): Catalogue {
  const reads = new KeptValues<string, unknown>({ max: CACHED_READS, ttlMs: CACHE_TTL_MS });
  const asVisitor = <T>(work: (trx: Tx) => Promise<T>) => runAs(database.kysely, ANON, work);
  // One read for the misses meanwhile; a change heard during a read is not undone by keeping it.
  const cached = <T>(key: string, load: () => Promise<T>) => reads.fill(key, load) as Promise<T>;

  const categories = () => cached("categories", () => asVisitor((trx) => listCategoryNames(trx)));
  const productIds = () => cached("ids", () => asVisitor((trx) => listProductIds(trx)));
  const isKnownProduct = async (id: string) => isUuid(id) && (await productIds()).includes(id.toLowerCase());

  return {
    async list(input = {}, limit) {
      const bounded =
        !input.search &&
        (input.page ?? 1) <= CACHED_PAGES &&
        (input.perPage ?? PRODUCTS_PER_PAGE) <= PRODUCTS_PER_PAGE &&
        (!input.category || (await categories()).includes(input.category));
      const read = () => asVisitor((trx) => listProducts(trx, publicUrl, input, limit));
      if (!bounded) return read();
      const key = `list:${JSON.stringify([input.category ?? "", input.sort ?? "", input.page ?? 1, input.perPage ?? 0, limit ?? 0])}`;
      return cached(key, read);
    },
    categories,
    async product(id) {
      if (!(await isKnownProduct(id))) return undefined;
      const key = id.toLowerCase();
      return cached(`product:${key}`, () =>
        asVisitor(async (trx) => {
          const product = await findProduct(trx, publicUrl, key);
          return product ? { ...product, ...(await findProductChoices(trx, publicUrl, product.id)) } : undefined;
        }),
      );
    },
    async related(id) {
      if (!(await isKnownProduct(id))) return asVisitor((trx) => relatedProducts(trx, publicUrl, id));
      const key = id.toLowerCase();
      return cached(`related:${key}`, () => asVisitor((trx) => relatedProducts(trx, publicUrl, key)));
    },
    async pictures(id) {
      if (!(await isKnownProduct(id))) return [];
      const key = id.toLowerCase();
      return cached(`pictures:${key}`, () => asVisitor((trx) => findProductPictures(trx, publicUrl, key)));
    },
    changed() {
      reads.clear();
      dropKeptPages();
    },
  };
}

const catalogues = perDatabase<Catalogue>({
  channels: { [CATALOGUE_CHANNEL]: (catalogue) => catalogue.changed() },
  unheard: (catalogue, error) => {
    // Without notifications the cache still expires after CACHE_TTL_MS; changes made here drop it at once.
    console.error("[catalogue] could not listen for catalogue changes:", error);
    return catalogue;
  },
});

/**
 * The catalogue of a database (one per process and database), listening for changes from the
 * first use on. The server's comes from the platform; tests pass their own database.
 */
export function catalogueFor(database: ShopDatabase, publicUrl: PublicUrl): Promise<Catalogue> {
  return catalogues(database, () => createCatalogue(database, publicUrl));
}
