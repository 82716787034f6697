import type { Tx } from "@/server/db/as-caller";

/** The caller's request for a sold-out variant; RLS refuses another's, or a variant not sold out. A second ask changes nothing. */
export async function insertBackInStockRequest(trx: Tx, variantId: string) {
  await trx.insertInto("back_in_stock_requests").values({ variant_id: variantId }).onConflict((oc) => oc.columns(["user_id", "variant_id"]).doNothing()).execute();
}

/** Deletes the caller's request (RLS: their own only); whether there was one. */
export async function deleteBackInStockRequest(trx: Tx, variantId: string): Promise<boolean> {
  const result = await trx.deleteFrom("back_in_stock_requests").where("variant_id", "=", variantId).where("user_id", "=", (eb) => eb.fn<string>("auth.uid", [])).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** Which of `variantIds` the caller has asked to be told about. */
export async function requestedVariantIds(trx: Tx, variantIds: readonly string[]): Promise<string[]> {
  if (variantIds.length === 0) return [];
  const rows = await trx
    .selectFrom("back_in_stock_requests")
    .select("variant_id")
    .where("variant_id", "in", variantIds)
    .where("user_id", "=", (eb) => eb.fn<string>("auth.uid", []))
    .execute();
  return rows.map((row) => row.variant_id);
}

/** A low-stock crossing as the admins' notice names it: the line's name and what is left. */
export function findLowStockNotice(trx: Tx, id: string) {
  return trx
    .selectFrom("low_stock_notices as n")
    .innerJoin("product_variants as v", "v.id", "n.variant_id")
    .innerJoin("products as p", "p.id", "v.product_id")
    .select((eb) => [eb.fn<string>("public.variant_line_name", ["p.name", "v.option_values"]).as("name"), "n.stock", "p.id as productId"])
    .where("n.id", "=", id)
    .executeTakeFirst();
}
