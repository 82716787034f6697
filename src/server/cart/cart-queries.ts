import { sql } from "kysely";
import type { Tx } from "@/server/db/as-caller";
import { productImageUrl } from "@/server/catalogue/catalogue-queries";
import type { PublicUrl } from "@/server/ports/storage";

export interface CartLine {
  id: string;
  productId: string;
  name: string;
  /** Current unit price in rands. */
  price: number;
  imageUrl: string | null;
  quantity: number;
  lineTotal: number;
  available: boolean;
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
    .select([
      "c.id",
      "c.product_id",
      "c.quantity",
      "p.name",
      "p.price",
      "p.image_path",
      "p.available",
      sql<string>`p.price * c.quantity`.as("line_total"),
    ])
    .orderBy("c.added_at")
    .orderBy("c.id")
    .execute();
  const lines = rows.map((row) => ({
    id: row.id,
    productId: row.product_id,
    name: row.name,
    price: Number(row.price),
    imageUrl: productImageUrl(row.image_path, publicUrl),
    quantity: row.quantity,
    lineTotal: Number(row.line_total),
    available: row.available,
  }));
  const totals = await trx
    .selectFrom("cart_items as c")
    .innerJoin("products as p", "p.id", "c.product_id")
    .select([sql<string>`coalesce(sum(p.price * c.quantity), 0)`.as("total"), sql<string>`coalesce(sum(c.quantity), 0)`.as("count")])
    .executeTakeFirstOrThrow();
  return { lines, total: Number(totals.total), count: Number(totals.count) };
}

/** The caller's line of one product, with what the cart's messages and checks need; undefined if there is none. */
export function findLine(trx: Tx, productId: string) {
  return trx
    .selectFrom("cart_items as c")
    .innerJoin("products as p", "p.id", "c.product_id")
    .select(["c.quantity", "p.name", "p.available"])
    .where("c.product_id", "=", productId)
    .executeTakeFirst();
}

/** How many items the caller's cart holds (the navigation bar's badge). */
export async function cartCount(trx: Tx): Promise<number> {
  const row = await trx.selectFrom("cart_items").select(sql<string>`coalesce(sum(quantity), 0)`.as("count")).executeTakeFirstOrThrow();
  return Number(row.count);
}

/** +1 on the caller's line of a product; the line's check (line-limit.ts) refuses past the limit. */
export async function incrementLine(trx: Tx, productId: string): Promise<void> {
  await trx.updateTable("cart_items").set({ quantity: sql`quantity + 1` }).where("product_id", "=", productId).execute();
}

/** -1 on the caller's line of a product. */
export async function decrementLine(trx: Tx, productId: string): Promise<void> {
  await trx.updateTable("cart_items").set({ quantity: sql`quantity - 1` }).where("product_id", "=", productId).execute();
}

/** Removes the caller's line of a product. */
export async function deleteLine(trx: Tx, productId: string): Promise<void> {
  await trx.deleteFrom("cart_items").where("product_id", "=", productId).execute();
}

/** add_to_cart(): +1 on an existing line, a new line at 1 (available products only); the line with its product's name, in one statement. */
export async function addOne(trx: Tx, productId: string): Promise<{ quantity: number; name: string } | undefined> {
  const { rows } = await sql<{ quantity: number; name: string }>`
    select line.quantity, p.name
    from public.add_to_cart(${productId}::uuid) as line
    join public.products p on p.id = line.product_id`.execute(trx);
  return rows[0];
}
