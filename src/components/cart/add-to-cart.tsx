import { Link } from "@/components/ui/link";
import { messages } from "@/lib/messages";
import { AddToCartButton } from "@/components/signed-in";
import { buttonClasses } from "@/components/ui/button";
import type { CatalogueProduct } from "@/server/catalogue/catalogue-queries";
import { RequestQuoteLink } from "@/components/quotes/request-quote-link";
import { SignInToAdd } from "./sign-in-to-add";

export type Viewer = "visitor" | "customer" | "admin";

/**
 * 'Add to Cart' as each viewer gets it: customers add one; visitors are asked to sign in (a
 * button without the cart client, so a visitor's page stays light); admins are not offered it.
 * A product with options is added from its page, where they are chosen ("Choose options"); a
 * counted product with none left says "Sold out". A bookable service's time is chosen on its page
 * too ("Choose a time").
 */
export function AddToCart({
  product,
  viewer,
  compact = false,
}: {
  product: Pick<CatalogueProduct, "id" | "available" | "hasOptions" | "stock" | "bookable" | "quoteMode">;
  viewer: Viewer;
  compact?: boolean;
}) {
  if (viewer === "admin") return null;
  if (!product.available) return <p className="text-sm font-medium text-danger">{messages.cart.unavailable}</p>;
  // Sold by quote only: asked for, never added (add_variant_to_cart() refuses it too).
  if (product.quoteMode === "instead") return <RequestQuoteLink productId={product.id} viewer={viewer} primary className={compact ? "w-full" : "w-full sm:w-auto"} />;
  if (product.stock === 0) return <p className="text-sm font-medium text-danger">{messages.catalogue.soldOut}</p>;
  const className = compact ? "w-full" : "w-full sm:w-auto";
  if (product.hasOptions || product.bookable) {
    return (
      <Link href={`/products/${product.id}`} className={buttonClasses("outline", className)}>
        {product.bookable ? messages.bookings.chooseTime : messages.catalogue.chooseOptions}
      </Link>
    );
  }
  return viewer === "visitor" ? <SignInToAdd productId={product.id} className={className} /> : <AddToCartButton productId={product.id} className={className} />;
}
