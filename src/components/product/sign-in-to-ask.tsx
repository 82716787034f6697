"use client";

import { storefrontMessages as messages } from "@/lib/storefront-messages";
import { SignInFirst } from "@/components/ui/sign-in-first";

/** A visitor's "E-mail me when it is back": says to sign in first and offers the way back to this product. */
export function SignInToAsk({ productId }: { productId: string }) {
  return (
    <SignInFirst
      next={`/products/${productId}`}
      label={messages.stockNotices.ask}
      message={messages.stockNotices.signInToAsk}
      linkText={messages.stockNotices.signIn}
      variant="outline"
      className="w-full sm:w-auto"
    />
  );
}
