import { sql } from "kysely";
import type { Tx } from "@/server/db/as-caller";
import { productImageUrl } from "@/server/catalogue/catalogue-queries";
import type { PublicUrl } from "@/server/ports/storage";

export interface CartLine {
  id: string;
  productId: string;
  variantId: string;
  /** The product's name, with the variant's choices when it has options ("Golf shirt — L / Navy"). */
  name: string;
  /** Current unit price in rands. */
  price: number;
  imageUrl: string | null;
  quantity: number;
  lineTotal: number;
  available: boolean;
  /** Units in stock when the variant's stock is counted; null when not. */
  stock: number | null;
}

export interface Cart {
  lines: CartLine[];
  /** Computed in SQL from current prices. */
  total: number;
  count: number;
}

/** The caller's cart (RLS: their own lines only), oldest line first. */
export async function readCart(trx: Tx, publicUrl: PublicUrl): Promise<Cart> {
  const rows = await trx
    .selectFrom("cart_items as c")
    .innerJoin("products as p", "p.id", "c.product_id")
    .innerJoin("product_variants as v", "v.id", "c.variant_id")
    .select([
      "c.id",
      "c.product_id",
      "c.variant_id",
      "c.quantity",
      "v.stock",
      sql<string>`public.variant_line_name(p.name, v.option_values)`.as("name"),
      sql<string>`coalesce(v.price, p.price)`.as("price"),
      sql<string | null>`coalesce(v.image_path, p.image_path)`.as("image_path"),
      sql<boolean>`p.available and v.available`.as("available"),
      sql<string>`coalesce(v.price, p.price) * c.quantity`.as("line_total"),
    ])
    .orderBy("c.added_at")
    .orderBy("c.id")
    .execute();
  const lines = rows.map((row) => ({
    id: row.id,
    productId: row.product_id,
    variantId: row.variant_id,
    name: row.name,
    price: Number(row.price),
    imageUrl: productImageUrl(row.image_path, publicUrl),
    quantity: row.quantity,
    lineTotal: Number(row.line_total),
    available: row.available,
    stock: row.stock,
  }));
  const totals = await trx
    .selectFrom("cart_items as c")
    .innerJoin("products as p", "p.id", "c.product_id")
    .innerJoin("product_variants as v", "v.id", "c.variant_id")
    .select([sql<string>`coalesce(sum(coalesce(v.price, p.price) * c.quantity), 0)`.as("total"), sql<string>`coalesce(sum(c.quantity), 0)`.as("count")])
    .executeTakeFirstOrThrow();
  return { lines, total: Number(totals.total), count: Number(totals.count) };
}

/** The caller's cart line, with what the cart's messages and checks need; undefined if there is none. */
export function findLine(trx: Tx, lineId: string) {
  return trx
    .selectFrom("cart_items as c")
    .innerJoin("products as p", "p.id", "c.product_id")
    .innerJoin("product_variants as v", "v.id", "c.variant_id")
    .select(["c.quantity", "v.stock", sql<string>`public.variant_line_name(p.name, v.option_values)`.as("name"), sql<boolean>`p.available and v.available`.as("available")])
    .where("c.id", "=", lineId)
    .executeTakeFirst();
}

/** How many items the caller's cart holds (the navigation bar's badge). */
export async function cartCount(trx: Tx): Promise<number> {
  const row = await trx.selectFrom("cart_items").select(sql<string>`coalesce(sum(quantity), 0)`.as("count")).executeTakeFirstOrThrow();
  return Number(row.count);
}

/** +1 on the caller's line; the line's check (line-limit.ts) refuses past the limit. */
export async function incrementLine(trx: Tx, lineId: string): Promise<void> {
  await trx.updateTable("cart_items").set({ quantity: sql`quantity + 1` }).where("id", "=", lineId).execute();
}

/** -1 on the caller's line. */
export async function decrementLine(trx: Tx, lineId: string): Promise<void> {
  await trx.updateTable("cart_items").set({ quantity: sql`quantity - 1` }).where("id", "=", lineId).execute();
}

/** Removes the caller's line. */
export async function deleteLine(trx: Tx, lineId: string): Promise<void> {
  await trx.deleteFrom("cart_items").where("id", "=", lineId).execute();
}

/**
 * add_to_cart() (a product without options) or add_variant_to_cart() (a chosen variant, which
 * must be the product's): +1 on an existing line, a new line at 1; the line's quantity and name
 * in one statement. Undefined when the variant is not the product's.
 */
export async function addOne(trx: Tx, productId: string, variantId?: string): Promise<{ quantity: number; name: string } | undefined> {
  const line = variantId ? sql`public.add_variant_to_cart(${variantId}::uuid)` : sql`public.add_to_cart(${productId}::uuid)`;
  const { rows } = await sql<{ quantity: number; name: string; product_id: string }>`
    select line.quantity, line.product_id, public.variant_line_name(p.name, v.option_values) as name
    from ${line} as line
    join public.products p on p.id = line.product_id
    join public.product_variants v on v.id = line.variant_id`.execute(trx);
  return rows[0]?.product_id === productId ? rows[0] : undefined;
}
