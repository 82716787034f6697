import type { QuoteMode } from "@/lib/statuses";
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
  /** "Request a quote" on its page: off, beside Add to Cart, or instead of it. */
  quoteMode: QuoteMode;
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
      "p.quote_mode",
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
    quoteMode: row.quote_mode,
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

/** The owner's "Request a quote" setting of a product (docs/quotes.md); its name, or undefined when it is gone. */
export function setProductQuoteMode(trx: Tx, id: string, quoteMode: QuoteMode) {
  return trx.updateTable("products").set({ quote_mode: quoteMode }).where("id", "=", id).returning("name").executeTakeFirst();
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
  /** Its own picture (one of the product's), or null: the product's card picture. */
  pictureId: string | null;
}

/** A product's options and variants (admins), in order; undefined if the product is gone. */
export async function readVariants(trx: Tx, productId: string) {
  const product = await trx.selectFrom("products").select(["name", "price"]).where("id", "=", productId).executeTakeFirst();
  if (!product) return undefined;
  const options = await trx.selectFrom("product_options").select(["name", "choices"]).where("product_id", "=", productId).orderBy("position").execute();
  const variants = await trx
    .selectFrom("product_variants as v")
    .leftJoin("product_images as i", (join) => join.onRef("i.product_id", "=", "v.product_id").onRef("i.path", "=", "v.image_path"))
    .select(["v.id", "v.option_values", "v.sku", "v.price", "v.available", "v.stock", "v.low_stock_at", "i.id as picture_id"])
    .where("v.product_id", "=", productId)
    .orderBy("v.position")
    .orderBy("v.created_at")
    .execute();
  const pictures = await trx.selectFrom("product_images").select(["id", "alt", "position"]).where("product_id", "=", productId).orderBy("position").execute();
  const personalisation = await trx
    .selectFrom("product_personalisation_fields")
    .select(["id", "label", "kind", "required", "max_length", "price"])
    .where("product_id", "=", productId)
    .orderBy("position")
    .execute();
  return {
    name: product.name,
    price: product.price,
    personalisation: personalisation.map((field) => ({ id: field.id, label: field.label, kind: field.kind, required: field.required, maxLength: field.max_length, price: field.price })),
    options,
    pictures,
    variants: variants.map(
      (row): AdminVariant => ({
        id: row.id,
        optionValues: row.option_values,
        sku: row.sku,
        price: row.price,
        available: row.available,
        stock: row.stock,
        lowStockAt: row.low_stock_at,
        pictureId: row.picture_id,
      }),
    ),
  };
}

/** save_product_options(): the product's options, and its variants made their combinations. Returns how many. */
export async function saveOptions(trx: Tx, productId: string, options: { name: string; choices: string[] }[]): Promise<number> {
  const { rows } = await sql<{ count: number }>`select public.save_product_options(${productId}::uuid, ${JSON.stringify(options)}::jsonb) as count`.execute(trx);
  return rows[0]!.count;
}

/**
 * Updates one of the product's variants. The stock is written only when the admin changed it, and
 * only over the stock they read (`stockWas`): an order that took units meanwhile is never undone.
 * "unknown": not (any more) the product's; "stockChanged": its stock is no longer `stockWas`
 * (`now` says what it is); "pictureUnknown": the picture is not (any more) the product's.
 */
export async function updateVariant(
  trx: Tx,
  productId: string,
  variant: { id: string; sku: string | null; price: string | null; available: boolean; stock: number | null; stockWas: number | null; lowStockAt: number | null; pictureId: string | null },
): Promise<{ result: "ok" | "unknown" | "pictureUnknown" } | { result: "stockChanged"; now: number | null }> {
  let imagePath: string | null = null;
  if (variant.pictureId) {
    const picture = await trx.selectFrom("product_images").select("path").where("id", "=", variant.pictureId).where("product_id", "=", productId).executeTakeFirst();
    if (!picture) return { result: "pictureUnknown" };
    imagePath = picture.path;
  }
  const stockChanged = variant.stock !== variant.stockWas;
  let update = trx
    .updateTable("product_variants")
    .set({ sku: variant.sku, price: variant.price, available: variant.available, low_stock_at: variant.lowStockAt, image_path: imagePath, ...(stockChanged ? { stock: variant.stock } : {}) })
    .where("id", "=", variant.id)
    .where("product_id", "=", productId);
  if (stockChanged) update = update.where(sql<boolean>`stock is not distinct from ${variant.stockWas}::integer`);
  const result = await update.executeTakeFirst();
  if (result.numUpdatedRows > 0n) return { result: "ok" };
  const current = await trx.selectFrom("product_variants").select("stock").where("id", "=", variant.id).where("product_id", "=", productId).executeTakeFirst();
  return current ? { result: "stockChanged", now: current.stock } : { result: "unknown" };
}

/**
 * Sets a product's personalisation fields, in order: kept fields (by id) are updated, new ones
 * added, the rest removed. False if a kept id is not (any more) the product's.
 */
export async function savePersonalisationFields(
  trx: Tx,
  productId: string,
  fields: { id?: string; label: string; kind: "text" | "file"; required: boolean; maxLength: number | null; price: string | null }[],
): Promise<boolean> {
  const kept = fields.flatMap((field) => (field.id ? [field.id] : []));
  let remove = trx.deleteFrom("product_personalisation_fields").where("product_id", "=", productId);
  if (kept.length > 0) remove = remove.where("id", "not in", kept);
  await remove.execute();
  for (const [index, field] of fields.entries()) {
    const values = { position: index + 1, label: field.label, kind: field.kind, required: field.required, max_length: field.maxLength, price: field.price ?? "0" };
    if (field.id) {
      const updated = await trx.updateTable("product_personalisation_fields").set(values).where("id", "=", field.id).where("product_id", "=", productId).executeTakeFirst();
      if (updated.numUpdatedRows === 0n) return false;
    } else {
      await trx.insertInto("product_personalisation_fields").values({ ...values, product_id: productId }).execute();
    }
  }
  return true;
}
