import { BackInStockButton } from "@/components/signed-in";
import type { Viewer } from "@/components/cart/add-to-cart";
import { SignInToAsk } from "./sign-in-to-ask";

/**
 * "E-mail me when it is back" under a sold-out variant, as each viewer gets it: a customer asks
 * (docs/architecture.md#products-variants-and-stock); a visitor is asked to sign in first, as
 * for Add to Cart; admins are not offered it.
 */
export function BackInStock({ productId, variantId, viewer }: { productId: string; variantId: string; viewer: Viewer }) {
  if (viewer === "admin") return null;
  return viewer === "visitor" ? <SignInToAsk productId={productId} /> : <BackInStockButton key={variantId} variantId={variantId} />;
}
