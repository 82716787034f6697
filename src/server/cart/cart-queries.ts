import { sql } from "kysely";
import { TRPCError } from "@trpc/server";
import { messages } from "@/lib/messages";
import type { ScopedDb, Tx } from "@/server/db/as-caller";
import { productImageUrl } from "@/server/catalogue/catalogue-queries";
import type { PublicUrl } from "@/server/ports/storage";
import { lineLimitRefusal } from "./line-limit";

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

async function findLine(trx: Tx, productId: string) {
  const line = await trx
    .selectFrom("cart_items as c")
    .innerJoin("products as p", "p.id", "c.product_id")
    .select(["c.quantity", "p.name", "p.available"])
    .where("c.product_id", "=", productId)
    .executeTakeFirst();
  if (!line) throw new TRPCError({ code: "NOT_FOUND", message: messages.cart.lineGone });
  return line;
}

/** How many items the caller's cart holds (the navigation bar's badge). */
export async function cartCount(trx: Tx): Promise<number> {
  const row = await trx.selectFrom("cart_items").select(sql<string>`coalesce(sum(quantity), 0)`.as("count")).executeTakeFirstOrThrow();
  return Number(row.count);
}

/** The caller's cart, as the cart page shows it. */
export async function loadCart(db: ScopedDb, publicUrl: PublicUrl): Promise<Cart> {
  try {
    return await db.transaction((trx) => readCart(trx, publicUrl));
  } catch (error) {
    throw new TRPCError({ code: "INTERNAL_SERVER_ERROR", message: messages.cart.loadFailed, cause: error });
  }
}

/**
 * +1 on a line already in the cart, as far as the line's limit (MAX_CART_LINE_QUANTITY). An
 * unavailable product cannot be added to a cart (ARCHITECTURE §9), so neither can more of one
 * already there: the cart page offers no "+" on such a line, and the API says why.
 */
export function increaseLine(db: ScopedDb, productId: string) {
  return db.transaction(async (trx) => {
    const line = await findLine(trx, productId);
    if (!line.available) throw new TRPCError({ code: "BAD_REQUEST", message: messages.cart.unavailable });
    try {
      await trx.updateTable("cart_items").set({ quantity: sql`quantity + 1` }).where("product_id", "=", productId).execute();
    } catch (error) {
      throw lineLimitRefusal(error) ?? error;
    }
    return { message: messages.cart.quantityUpdated(line.name) };
  });
}

/** -1 on a line; at quantity 1 the line is removed (spec §4). */
export function decreaseLine(db: ScopedDb, productId: string) {
  return db.transaction(async (trx) => {
    const line = await findLine(trx, productId);
    if (line.quantity <= 1) {
      await trx.deleteFrom("cart_items").where("product_id", "=", productId).execute();
      return { message: messages.cart.removed };
    }
    await trx.updateTable("cart_items").set({ quantity: sql`quantity - 1` }).where("product_id", "=", productId).execute();
    return { message: messages.cart.quantityUpdated(line.name) };
  });
}

/** Removes a line whatever its quantity. */
export function removeLine(db: ScopedDb, productId: string) {
  return db.transaction(async (trx) => {
    await findLine(trx, productId);
    await trx.deleteFrom("cart_items").where("product_id", "=", productId).execute();
    return { message: messages.cart.removed };
  });
}
