import { STOCK_FEW_LEFT } from "./constants";
import { storefrontMessages as messages } from "./storefront-messages";

/**
 * What a shopper reads of a counted stock: "Sold out", "Only 3 left" (at or below STOCK_FEW_LEFT)
 * or "In stock"; nothing when stock is not counted (null).
 */
export function stockLabel(stock: number | null): string | null {
  if (stock === null) return null;
  if (stock <= 0) return messages.catalogue.soldOut;
  if (stock <= STOCK_FEW_LEFT) return messages.catalogue.fewLeft(stock);
  return messages.catalogue.inStock;
}

/** Whether a shopper can add one: available, and not sold out where stock is counted. */
export function canBuy(variant: { available: boolean; stock: number | null }): boolean {
  return variant.available && (variant.stock === null || variant.stock > 0);
}
