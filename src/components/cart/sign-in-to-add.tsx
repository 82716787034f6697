"use client";

import { storefrontMessages as messages } from "@/lib/storefront-messages";
import { SignInFirst } from "@/components/ui/sign-in-first";

/** A visitor's 'Add to Cart': says to sign in first and offers the way back to this product (a tap before the scripts run goes to sign in). */
export function SignInToAdd({ productId, className }: { productId: string; className: string }) {
  return <SignInFirst next={`/products/${productId}`} reason="shop" label="Add to Cart" message={messages.cart.signInToAdd} linkText="Sign in to shop" variant="accent" className={className} />;
}
