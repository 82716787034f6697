import { PRODUCTS_PER_PAGE } from "@/lib/constants";
import { ANON, runAs, type Tx } from "@/server/db/as-caller";
import type { ShopDatabase } from "@/server/db/database";
import { invalidateVisitorPages } from "@/server/http/visitor-pages";
import type { PublicUrl } from "@/server/ports/storage";
import { settingsFromEnv } from "@/server/settings/defaults";
import { publicSettingsOf, readPublicSettings, type PublicShopSettings } from "@/server/settings/queries";
import type { ListProductsInput } from "./schemas";
import { findProduct, isUuid, listCategoryNames, listProductIds, listProducts, relatedProducts, type CatalogueProduct } from "./catalogue-queries";

/** The channel every server process LISTENs on; the migrations' triggers notify it. */
export const CATALOGUE_CHANNEL = "catalogue_changes";
/** How many pages of each category's listing are cached; later pages are rarely visited. */
export const CACHED_PAGES = 5;
/** A cached read is read again after this long, even if no change was heard (a lost notification). */
export const CACHE_TTL_MS = 60_000;

/**
 * The storefront's catalogue: the one read path for pages, the sitemap, the catalogue.*
 * procedures and (through the pages) the visitors' kept HTML (ARCHITECTURE §13); with it the
 * shop's published settings, which the same pages show (footer, contact page, checkout).
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
  product(id: string): Promise<CatalogueProduct | undefined>;
  related(id: string): Promise<CatalogueProduct[]>;
  /**
   * The shop's published settings (bank account, contact details, information officer, unpaid-
   * order days); the environment's values while the shop has no settings row yet.
   */
  settings(): Promise<PublicShopSettings>;
  /** Drops this process's cached reads and kept visitor pages (after a change it made or heard of). */
  changed(): void;
}

interface Entry {
  at: number;
  value: Promise<unknown>;
}

function createCatalogue(database: ShopDatabase, publicUrl: PublicUrl): Catalogue {
  const entries = new Map<string, Entry>();
  const asVisitor = <T>(work: (trx: Tx) => Promise<T>) => runAs(database.kysely, ANON, work);

  function cached<T>(key: string, load: () => Promise<T>): Promise<T> {
    const now = Date.now();
    const hit = entries.get(key);
    if (hit && now - hit.at < CACHE_TTL_MS) return hit.value as Promise<T>;
    const value = load();
    // Set before the read finishes: a change heard meanwhile clears it, so it is never kept stale.
    const entry = { at: now, value };
    entries.set(key, entry);
    value.catch(() => {
      if (entries.get(key) === entry) entries.delete(key);
    });
    return value;
  }

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
      return cached(`product:${key}`, () => asVisitor((trx) => findProduct(trx, publicUrl, key)));
    },
    async related(id) {
      if (!(await isKnownProduct(id))) return asVisitor((trx) => relatedProducts(trx, publicUrl, id));
      const key = id.toLowerCase();
      return cached(`related:${key}`, () => asVisitor((trx) => relatedProducts(trx, publicUrl, key)));
    },
    settings() {
      return cached("settings", async () => (await asVisitor((trx) => readPublicSettings(trx))) ?? publicSettingsOf(settingsFromEnv()));
    },
    changed() {
      entries.clear();
      invalidateVisitorPages();
    },
  };
}

const catalogues = new WeakMap<ShopDatabase, Promise<Catalogue>>();

/**
 * The catalogue of a database (one per process and database), listening for changes from the
 * first use on. The server's comes from the platform; tests pass their own database.
 */
export function catalogueFor(database: ShopDatabase, publicUrl: PublicUrl): Promise<Catalogue> {
  let catalogue = catalogues.get(database);
  if (!catalogue) {
    const created = createCatalogue(database, publicUrl);
    catalogue = database.listen(CATALOGUE_CHANNEL, () => created.changed()).then(
      () => created,
      (error: unknown) => {
        // Without notifications the cache still expires after CACHE_TTL_MS; changes made here drop it at once.
        console.error("[catalogue] could not listen for catalogue changes:", error);
        return created;
      },
    );
    catalogues.set(database, catalogue);
  }
  return catalogue;
}
