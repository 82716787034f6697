import { sql } from "kysely";
import type { Tx } from "@/server/db/as-caller";
import { productImageUrl } from "@/server/catalogue/catalogue-queries";
import type { PublicUrl } from "@/server/ports/storage";

/** A product as Product Management lists it (available or not). */
export interface AdminProduct {
  id: string;
  name: string;
  description: string;
  price: number;
  /** The price as stored ("149.50"), for the edit form. */
  priceText: string;
  categoryId: string;
  imageUrl: string | null;
  available: boolean;
  category: string;
  createdAt: Date;
  /** How many variants it is sold as (1 without options). */
  variantCount: number;
  /** Units in stock over its counted variants; null when none is counted. */
  stock: number | null;
  /** Some counted variant is sold out / at or below its low-stock mark. */
  soldOut: boolean;
  lowStock: boolean;
}

export interface ProductValues {
  name: string;
  description: string;
  price: string;
  categoryId: string;
}

/** Every product (RLS: admins write; everyone reads), newest first. */
export async function listAllProducts(trx: Tx, publicUrl: PublicUrl): Promise<AdminProduct[]> {
  const rows = await trx
    .selectFrom("products as p")
    .innerJoin("categories as c", "c.id", "p.category_id")
    .select([
      "p.id",
      "p.name",
      "p.description",
      "p.price",
      "p.image_path",
      "p.available",
      "p.created_at",
      "p.category_id",
      "c.name as category",
      sql<number>`(select count(*)::int from public.product_variants v where v.product_id = p.id)`.as("variant_count"),
      sql<string | null>`(select sum(v.stock) from public.product_variants v where v.product_id = p.id)`.as("stock"),
      sql<boolean>`exists (select 1 from public.product_variants v where v.product_id = p.id and v.stock = 0)`.as("sold_out"),
      sql<boolean>`exists (select 1 from public.product_variants v where v.product_id = p.id and v.stock > 0 and v.stock <= v.low_stock_at)`.as("low_stock"),
    ])
    .orderBy("p.created_at", "desc")
    .execute();
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    description: row.description,
    price: Number(row.price),
    priceText: row.price,
    categoryId: row.category_id,
    imageUrl: productImageUrl(row.image_path, publicUrl),
    available: row.available,
    category: row.category,
    createdAt: new Date(row.created_at),
    variantCount: row.variant_count,
    stock: row.stock === null ? null : Number(row.stock),
    soldOut: row.sold_out,
    lowStock: row.low_stock,
  }));
}

export function listCategories(trx: Tx) {
  return trx.selectFrom("categories").select(["id", "name"]).orderBy("name").execute();
}

export function insertCategory(trx: Tx, name: string) {
  return trx.insertInto("categories").values({ name }).returning(["id", "name"]).executeTakeFirstOrThrow();
}

export function insertProduct(trx: Tx, values: ProductValues, imagePath: string) {
  return trx
    .insertInto("products")
    .values({ name: values.name, description: values.description, price: values.price, category_id: values.categoryId, image_path: imagePath })
    .returning(["id", "name"])
    .executeTakeFirstOrThrow();
}

/** Updates a product; undefined if it is gone. Returns the image it had before. */
export async function updateProductRow(trx: Tx, id: string, values: ProductValues, imagePath: string | undefined) {
  const before = await trx.selectFrom("products").select("image_path").where("id", "=", id).executeTakeFirst();
  if (!before) return undefined;
  const product = await trx
    .updateTable("products")
    .set({
      name: values.name,
      description: values.description,
      price: values.price,
      category_id: values.categoryId,
      ...(imagePath ? { image_path: imagePath } : {}),
    })
    .where("id", "=", id)
    .returning("name")
    .executeTakeFirstOrThrow();
  return { name: product.name, oldImage: before.image_path };
}

export function setProductAvailability(trx: Tx, id: string, available: boolean) {
  return trx.updateTable("products").set({ available }).where("id", "=", id).returning("name").executeTakeFirst();
}

export function deleteProductRow(trx: Tx, id: string) {
  return trx.deleteFrom("products").where("id", "=", id).returning(["name", "image_path"]).executeTakeFirst();
}

/** A variant as the admin's grid edits it. */
export interface AdminVariant {
  id: string;
  optionValues: string[];
  sku: string | null;
  /** The variant's own price as stored ("149.50"), or null: the product's. */
  price: string | null;
  available: boolean;
  stock: number | null;
  lowStockAt: number | null;
}

/** A product's options and variants (admins), in order; undefined if the product is gone. */
export async function readVariants(trx: Tx, productId: string) {
  const product = await trx.selectFrom("products").select(["name", "price"]).where("id", "=", productId).executeTakeFirst();
  if (!product) return undefined;
  const options = await trx.selectFrom("product_options").select(["name", "choices"]).where("product_id", "=", productId).orderBy("position").execute();
  const variants = await trx
    .selectFrom("product_variants")
    .select(["id", "option_values", "sku", "price", "available", "stock", "low_stock_at"])
    .where("product_id", "=", productId)
    .orderBy("position")
    .orderBy("created_at")
    .execute();
  return {
    name: product.name,
    price: product.price,
    options,
    variants: variants.map(
      (row): AdminVariant => ({
        id: row.id,
        optionValues: row.option_values,
        sku: row.sku,
        price: row.price,
        available: row.available,
        stock: row.stock,
        lowStockAt: row.low_stock_at,
      }),
    ),
  };
}

/** save_product_options(): the product's options, and its variants made their combinations. Returns how many. */
export async function saveOptions(trx: Tx, productId: string, options: { name: string; choices: string[] }[]): Promise<number> {
  const { rows } = await sql<{ count: number }>`select public.save_product_options(${productId}::uuid, ${JSON.stringify(options)}::jsonb) as count`.execute(trx);
  return rows[0]!.count;
}

/** Updates one of the product's variants; false if it is not (any more) the product's. */
export async function updateVariant(
  trx: Tx,
  productId: string,
  variant: { id: string; sku: string | null; price: string | null; available: boolean; stock: number | null; lowStockAt: number | null },
): Promise<boolean> {
  const result = await trx
    .updateTable("product_variants")
    .set({ sku: variant.sku, price: variant.price, available: variant.available, stock: variant.stock, low_stock_at: variant.lowStockAt })
    .where("id", "=", variant.id)
    .where("product_id", "=", productId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
