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
    .select(["p.id", "p.name", "p.description", "p.price", "p.image_path", "p.available", "p.created_at", "p.category_id", "c.name as category"])
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
