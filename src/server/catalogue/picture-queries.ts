import type { Tx } from "@/server/db/as-caller";
import type { PublicUrl } from "@/server/ports/storage";
import { productImageUrl } from "./catalogue-queries";

/** One of a product's pictures (issue 37), as its page's gallery and Product Management show it. */
export interface ProductPicture {
  id: string;
  url: string;
  alt: string;
  /** The card's picture: products.image_path is its path. */
  isCard: boolean;
}

/** A product's pictures in the owner's order (RLS: everyone reads). */
export async function findProductPictures(trx: Tx, publicUrl: PublicUrl, productId: string): Promise<ProductPicture[]> {
  const rows = await trx
    .selectFrom("product_images")
    .select(["id", "path", "alt", "is_card"])
    .where("product_id", "=", productId)
    .orderBy("position")
    .execute();
  return rows.map((row) => ({ id: row.id, url: productImageUrl(row.path, publicUrl)!, alt: row.alt, isCard: row.is_card }));
}
