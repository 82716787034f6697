import { sql } from "kysely";
import { PRODUCTS_PER_PAGE, type ProductSort } from "@/lib/constants";
import type { QuoteMode } from "@/lib/statuses";
import type { Tx } from "@/server/db/as-caller";
import type { PublicUrl } from "@/server/ports/storage";
import type { ListProductsInput } from "./schemas";

/** A product as the shop shows it. */
export interface CatalogueProduct {
  id: string;
  name: string;
  description: string;
  /** Rands, two decimals at most. */
  price: number;
  imageUrl: string | null;
  category: string;
  available: boolean;
  /** ISO timestamp: the catalogue is cached as JSON. */
  createdAt: string;
  /** Whether the customer chooses options (on the product's page) before adding it. */
  hasOptions: boolean;
  /** A bookable service: the customer chooses a time (on the product's page) before adding it. */
  bookable: boolean;
  /** "Request a quote" on its page: not offered, beside Add to Cart, or instead of it (docs/quotes.md). */
  quoteMode: QuoteMode;
  /** The lowest and highest price of its available variants (both `price` without options). */
  priceFrom: number;
  priceTo: number;
  /**
   * Units in stock, when every available variant's stock is counted (summed); null when not
   * counted. 0: sold out.
   */
  stock: number | null;
}

/** One variant as the product page offers it. */
export interface CatalogueVariant {
  id: string;
  /** One choice per option, in the options' order; [] without options. */
  optionValues: string[];
  price: number;
  available: boolean;
  /** Null: not counted. */
  stock: number | null;
  /** Its own picture, one of the product's (the page's gallery shows it when it is chosen); null: the product's. */
  pictureUrl: string | null;
}

export interface CatalogueOption {
  name: string;
  choices: string[];
}

/** A field the product asks the customer to fill in for their line (a name, a logo). */
export interface CataloguePersonalisationField {
  id: string;
  label: string;
  kind: "text" | "file";
  required: boolean;
  /** Text only. */
  maxLength: number | null;
  /** Added to the unit price when filled in (0: free). */
  price: number;
}

/** A product's page: the product, its options, its variants in the owner's order, and its personalisation fields. */
export interface CatalogueProductDetail extends CatalogueProduct {
  options: CatalogueOption[];
  variants: CatalogueVariant[];
  personalisation: CataloguePersonalisationField[];
}

/** How many related products the details page shows (spec §9). */
export const RELATED_PRODUCTS = 3;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/**
 * Where a product image is served from: seeded art ships in /public; uploads live in the
 * products-services bucket, at the URL the storage port gives (docs/architecture.md#ports-and-the-platform).
 */
export function productImageUrl(imagePath: string | null, publicUrl: PublicUrl): string | null {
  if (!imagePath) return null;
  if (imagePath.startsWith("/")) return imagePath;
  return publicUrl({ bucket: "products-services", path: imagePath });
}

/**
 * Products with what the shop shows of their variants, read in one pass over each product's
 * available variants (a lateral aggregate): the price range, and the stock when every one is counted.
 */
function productQuery(trx: Tx) {
  return trx
    .selectFrom("products as p")
    .innerJoin("categories as c", "c.id", "p.category_id")
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom("product_variants as v")
          .whereRef("v.product_id", "=", "p.id")
          .where("v.available", "=", true)
          .select([
            sql<string | null>`min(coalesce(v.price, p.price))`.as("price_from"),
            sql<string | null>`max(coalesce(v.price, p.price))`.as("price_to"),
            sql<string | null>`case when bool_and(v.stock is not null) then sum(v.stock) end`.as("stock"),
          ])
          .as("va"),
      (join) => join.onTrue(),
    )
    .select([
      "p.id",
      "p.name",
      "p.description",
      "p.price",
      "p.image_path",
      "p.available",
      "p.created_at",
      "p.quote_mode",
      "c.name as category",
      sql<boolean>`exists (select 1 from public.product_options o where o.product_id = p.id)`.as("has_options"),
      sql<boolean>`exists (select 1 from public.bookable_services b where b.product_id = p.id)`.as("bookable"),
      "va.price_from",
      "va.price_to",
      "va.stock",
    ]);
}

type ProductRow = {
  id: string;
  name: string;
  description: string;
  price: string;
  image_path: string | null;
  available: boolean;
  created_at: Date;
  category: string;
  has_options: boolean;
  bookable: boolean;
  quote_mode: QuoteMode;
  price_from: string | null;
  price_to: string | null;
  stock: string | null;
};

function toProduct(row: ProductRow, publicUrl: PublicUrl): CatalogueProduct {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    price: Number(row.price),
    imageUrl: productImageUrl(row.image_path, publicUrl),
    category: row.category,
    available: row.available,
    createdAt: new Date(row.created_at).toISOString(),
    hasOptions: row.has_options,
    bookable: row.bookable,
    quoteMode: row.quote_mode,
    priceFrom: Number(row.price_from ?? row.price),
    priceTo: Number(row.price_to ?? row.price),
    stock: row.stock === null ? null : Number(row.stock),
  };
}

/** Escapes LIKE wildcards so a search for "50%" means the text "50%". */
export function likePattern(term: string) {
  return `%${term.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}

const ORDER: Record<ProductSort, [column: "p.created_at" | "p.price", direction: "asc" | "desc"]> = {
  newest: ["p.created_at", "desc"],
  "price-asc": ["p.price", "asc"],
  "price-desc": ["p.price", "desc"],
};

/**
 * Available products, optionally one category's, matching a search, in the chosen order: one
 * page of them (`limit` overrides the page size for server-side callers such as the sitemap).
 */
export async function listProducts(trx: Tx, publicUrl: PublicUrl, input: ListProductsInput = {}, limit = input.perPage ?? PRODUCTS_PER_PAGE): Promise<CatalogueProduct[]> {
  let query = productQuery(trx).where("p.available", "=", true);
  if (input.category) query = query.where("c.name", "=", input.category);
  if (input.search) {
    const pattern = likePattern(input.search);
    query = query.where((eb) =>
      eb.or([eb("p.name", "ilike", pattern), eb("p.description", "ilike", pattern)]),
    );
  }
  const [column, direction] = ORDER[input.sort ?? "newest"];
  const offset = ((input.page ?? 1) - 1) * (input.perPage ?? PRODUCTS_PER_PAGE);
  const rows = await query.orderBy(column, direction).orderBy("p.id").limit(limit).offset(offset).execute();
  return rows.map((row) => toProduct(row, publicUrl));
}

/** The category tabs: distinct, non-empty names of categories that have available products. */
export async function listCategoryNames(trx: Tx): Promise<string[]> {
  const rows = await trx
    .selectFrom("categories as c")
    .select("c.name")
    .where(sql<boolean>`btrim(c.name) <> ''`)
    .where((eb) =>
      eb.exists(
        eb.selectFrom("products as p").select("p.id").whereRef("p.category_id", "=", "c.id").where("p.available", "=", true),
      ),
    )
    .orderBy("c.name")
    .execute();
  return rows.map((row) => row.name);
}

/** The ids of every product a visitor may look up (available or not), lower-case. */
export async function listProductIds(trx: Tx): Promise<string[]> {
  const rows = await trx.selectFrom("products").select("id").execute();
  return rows.map((row) => row.id.toLowerCase());
}

/** One product, available or not (its page says when it is unavailable); undefined if unknown. */
export async function findProduct(trx: Tx, publicUrl: PublicUrl, id: string): Promise<CatalogueProduct | undefined> {
  if (!isUuid(id)) return undefined;
  const row = await productQuery(trx).where("p.id", "=", id).executeTakeFirst();
  return row ? toProduct(row, publicUrl) : undefined;
}

/** A product's options and variants (RLS: everyone reads), in the owner's order. */
export async function findProductChoices(trx: Tx, publicUrl: PublicUrl, productId: string): Promise<Pick<CatalogueProductDetail, "options" | "variants" | "personalisation">> {
  const [options, variants, fields] = await Promise.all([
    trx.selectFrom("product_options").select(["name", "choices"]).where("product_id", "=", productId).orderBy("position").execute(),
    trx
      .selectFrom("product_variants as v")
      .innerJoin("products as p", "p.id", "v.product_id")
      .select(["v.id", "v.option_values", "v.available", "v.stock", sql<string>`coalesce(v.price, p.price)`.as("price"), "v.image_path"])
      .where("v.product_id", "=", productId)
      .orderBy("v.position")
      .orderBy("v.created_at")
      .execute(),
    trx
      .selectFrom("product_personalisation_fields")
      .select(["id", "label", "kind", "required", "max_length", "price"])
      .where("product_id", "=", productId)
      .orderBy("position")
      .execute(),
  ]);
  return {
    options: options.map((option) => ({ name: option.name, choices: option.choices })),
    variants: variants.map((variant) => ({
      id: variant.id,
      optionValues: variant.option_values,
      price: Number(variant.price),
      available: variant.available,
      stock: variant.stock,
      pictureUrl: productImageUrl(variant.image_path, publicUrl),
    })),
    personalisation: fields.map((field) => ({ id: field.id, label: field.label, kind: field.kind, required: field.required, maxLength: field.max_length, price: Number(field.price) })),
  };
}

/** "You may also like": the first three other available products, in the shop's order. */
export async function relatedProducts(trx: Tx, publicUrl: PublicUrl, id: string): Promise<CatalogueProduct[]> {
  let query = productQuery(trx).where("p.available", "=", true);
  if (isUuid(id)) query = query.where("p.id", "<>", id);
  const rows = await query.orderBy("p.created_at", "desc").orderBy("p.id").limit(RELATED_PRODUCTS).execute();
  return rows.map((row) => toProduct(row, publicUrl));
}
