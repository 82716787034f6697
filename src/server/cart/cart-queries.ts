import { sql } from "kysely";
import type { Tx } from "@/server/db/as-caller";
import { productImageUrl } from "@/server/catalogue/catalogue-queries";
import type { PublicUrl, StoragePort } from "@/server/ports/storage";

export interface CartLine<P = PersonalisationShown> {
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
  /** What the customer added to this line, in the fields' order. */
  personalisation: P[];
  /** A bookable service's line: the slot held, and until when (docs/bookings.md); null otherwise. */
  slotStartsAt: Date | null;
  holdExpiresAt: Date | null;
}

/** A line's personalisation as stored: the text, or the file's path. */
export interface RawPersonalisation {
  label: string;
  kind: "text" | "file";
  value: string;
}

/** A line's personalisation as a page shows it: the text, or the file's name and a link the viewer may open. */
export interface PersonalisationShown {
  label: string;
  kind: "text" | "file";
  /** The text, or the file's name. */
  value: string;
  /** The file's URL (private: checked, or short-lived signed); null for text. */
  url: string | null;
}

/** A stored file's name as its owner gave it: the path's last part without its timestamp. */
export function storedFileName(path: string): string {
  return (path.split("/").pop() ?? path).replace(/^\d+_/, "");
}

/** Turns a line's [{label, kind, value}] (value: text or the file's path) into what a page shows. */
export async function showPersonalisation(
  storage: Pick<StoragePort, "privateUrl">,
  entries: RawPersonalisation[],
): Promise<PersonalisationShown[]> {
  return Promise.all(
    entries.map(async (entry) =>
      entry.kind === "file"
        ? { label: entry.label, kind: entry.kind, value: storedFileName(entry.value), url: await storage.privateUrl({ bucket: "personalisation", path: entry.value }) }
        : { label: entry.label, kind: entry.kind, value: entry.value, url: null },
    ),
  );
}

export interface Cart<P = PersonalisationShown> {
  lines: CartLine<P>[];
  /** Computed in SQL from current prices. */
  total: number;
  count: number;
  /**
   * What checkout asks now when booked lines ask a deposit below their price (docs/bookings.md):
   * every other line in full and those lines' deposits, before any delivery fee; null: the total.
   */
  dueNow: number | null;
  /** The balance paid later (total less dueNow), while dueNow is not null. */
  later: number | null;
}

/** The caller's cart (RLS: their own lines only), oldest line first. */
export async function readCart(trx: Tx, publicUrl: PublicUrl): Promise<Cart<RawPersonalisation>> {
  const rows = await trx
    .selectFrom("cart_items as c")
    .innerJoin("products as p", "p.id", "c.product_id")
    .innerJoin("product_variants as v", "v.id", "c.variant_id")
    .select([
      "c.id",
      "c.product_id",
      "c.variant_id",
      "c.quantity",
      "c.slot_starts_at",
      "c.hold_expires_at",
      "v.stock",
      sql<string>`public.variant_line_name(p.name, v.option_values)`.as("name"),
      sql<string>`coalesce(v.price, p.price) + public.personalisation_price(c.product_id, c.personalisation)`.as("price"),
      sql<string | null>`coalesce(v.image_path, p.image_path)`.as("image_path"),
      sql<boolean>`p.available and v.available`.as("available"),
      sql<string>`(coalesce(v.price, p.price) + public.personalisation_price(c.product_id, c.personalisation)) * c.quantity`.as("line_total"),
      sql<{ label: string; kind: "text" | "file"; value: string }[]>`coalesce((
        select jsonb_agg(jsonb_build_object('label', f.label, 'kind', f.kind, 'value', c.personalisation ->> f.id::text) order by f.position)
        from public.product_personalisation_fields f
        where f.product_id = c.product_id and c.personalisation ? f.id::text), '[]'::jsonb)`.as("personalisation"),
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
    personalisation: row.personalisation,
    slotStartsAt: row.slot_starts_at,
    holdExpiresAt: row.hold_expires_at,
  }));
  // What checkout asks now (public.booking_deposit(), as place_order() asks it): null while no
  // booked line asks a deposit below its price; and what is left for later.
  const { rows: sums } = await sql<{ total: string; count: string; due_now: string | null; later: string | null }>`
    select t.total, t.count, case when t.due_now < t.total then t.due_now end as due_now,
           case when t.due_now < t.total then t.total - t.due_now end as later
    from (
      select coalesce(sum(l.amount), 0) as total, coalesce(sum(l.quantity), 0) as count,
             case when bool_or(l.deposit is not null) then sum(coalesce(l.deposit, l.amount)) end as due_now
      from (
        select a.amount, a.quantity, case when a.slot_starts_at is not null then public.booking_deposit(a.product_id, a.amount) end as deposit
        from (
          select (coalesce(v.price, p.price) + public.personalisation_price(c.product_id, c.personalisation)) * c.quantity as amount,
                 c.quantity, c.product_id, c.slot_starts_at
          from public.cart_items c
          join public.products p on p.id = c.product_id
          join public.product_variants v on v.id = c.variant_id
        ) a
      ) l
    ) t`.execute(trx);
  const totals = sums[0]!;
  return {
    lines,
    total: Number(totals.total),
    count: Number(totals.count),
    dueNow: totals.due_now === null ? null : Number(totals.due_now),
    later: totals.later === null ? null : Number(totals.later),
  };
}

/** The caller's cart line, with what the cart's messages and checks need; undefined if there is none. */
export function findLine(trx: Tx, lineId: string) {
  return trx
    .selectFrom("cart_items as c")
    .innerJoin("products as p", "p.id", "c.product_id")
    .innerJoin("product_variants as v", "v.id", "c.variant_id")
    .select(["c.quantity", sql<string>`public.variant_line_name(p.name, v.option_values)`.as("name")])
    .where("c.id", "=", lineId)
    .executeTakeFirst();
}

/** How many items the caller's cart holds (the navigation bar's badge). */
export async function cartCount(trx: Tx): Promise<number> {
  const row = await trx.selectFrom("cart_items").select(sql<string>`coalesce(sum(quantity), 0)`.as("count")).executeTakeFirstOrThrow();
  return Number(row.count);
}

/** +1 on the caller's line; what increase_cart_line() refuses, ./refusals.ts words. */
export async function incrementLine(trx: Tx, lineId: string): Promise<void> {
  await sql`select public.increase_cart_line(${lineId}::uuid)`.execute(trx);
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
 * add_variant_to_cart() (a chosen variant, which must be the product's) or add_to_cart() (a
 * product without options): +1 on an existing line with the same personalisation, a new line at
 * 1; the line's quantity and name in one statement. Undefined when the variant is not the product's.
 */
export async function addOne(trx: Tx, productId: string, variantId?: string, personalisation: Record<string, string> = {}): Promise<{ quantity: number; name: string } | undefined> {
  const values = JSON.stringify(personalisation);
  const line = variantId ? sql`public.add_variant_to_cart(${variantId}::uuid, ${values}::jsonb)` : sql`public.add_to_cart(${productId}::uuid, ${values}::jsonb)`;
  const { rows } = await sql<{ quantity: number; name: string; product_id: string }>`
    select line.quantity, line.product_id, public.variant_line_name(p.name, v.option_values) as name
    from ${line} as line
    join public.products p on p.id = line.product_id
    join public.product_variants v on v.id = line.variant_id`.execute(trx);
  return rows[0]?.product_id === productId ? rows[0] : undefined;
}
