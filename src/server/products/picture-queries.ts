import { sql } from "kysely";
import type { Tx } from "@/server/db/as-caller";

// A product's pictures (issue 37): the SQL functions of 020_catalogue.sql keep their order, the
// card picture and products.image_path in step; RLS lets only admins write.

/** add_product_image(): a new last picture (the card's if it is the product's first); its id. */
export async function insertPicture(trx: Tx, productId: string, path: string, alt: string): Promise<string> {
  const { rows } = await sql<{ id: string }>`select public.add_product_image(${productId}::uuid, ${path}, ${alt}) as id`.execute(trx);
  return rows[0]!.id;
}

/** move_product_image(): swaps a picture with its neighbour; false at either end. */
export async function movePictureRow(trx: Tx, id: string, up: boolean): Promise<boolean> {
  const { rows } = await sql<{ moved: boolean }>`select public.move_product_image(${id}::uuid, ${up}) as moved`.execute(trx);
  return rows[0]!.moved;
}

/** set_product_card_image(): the picture the product's card shows. */
export async function setCardPictureRow(trx: Tx, id: string): Promise<void> {
  await sql`select public.set_product_card_image(${id}::uuid)`.execute(trx);
}

/** remove_product_image(): the removed picture's path, whose file the caller removes after the commit. */
export async function deletePictureRow(trx: Tx, id: string): Promise<string> {
  const { rows } = await sql<{ path: string }>`select public.remove_product_image(${id}::uuid) as path`.execute(trx);
  return rows[0]!.path;
}

/** Changes a picture's alt text; false when the picture is gone. */
export async function updatePictureAlt(trx: Tx, id: string, alt: string): Promise<boolean> {
  const result = await trx.updateTable("product_images").set({ alt }).where("id", "=", id).executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** The paths of a product's pictures (their files go when the product does). */
export async function picturePaths(trx: Tx, productId: string): Promise<string[]> {
  const rows = await trx.selectFrom("product_images").select("path").where("product_id", "=", productId).execute();
  return rows.map((row) => row.path);
}
