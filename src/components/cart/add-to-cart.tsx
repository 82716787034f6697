import { messages } from "@/lib/messages";
import { AddToCartButton } from "@/components/signed-in";
import { SignInToAdd } from "./sign-in-to-add";

export type Viewer = "visitor" | "customer" | "admin";

/**
 * 'Add to Cart' as each viewer gets it: customers add one; visitors are asked to sign in (a
 * button without the cart client, so a visitor's page stays light); admins are not offered it.
 */
export function AddToCart({ productId, available, viewer, compact = false }: { productId: string; available: boolean; viewer: Viewer; compact?: boolean }) {
  if (viewer === "admin") return null;
  if (!available) return <p className="text-sm font-medium text-danger">{messages.cart.unavailable}</p>;
  const className = compact ? "w-full" : "w-full sm:w-auto";
  return viewer === "visitor" ? <SignInToAdd productId={productId} className={className} /> : <AddToCartButton productId={productId} className={className} />;
}
