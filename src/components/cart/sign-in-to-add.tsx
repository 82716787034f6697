"use client";

import Link from "next/link";
import { messages } from "@/lib/messages";
import { signInHref } from "@/lib/sign-in-paths";
import { Button } from "@/components/ui/button";
import { StatusMessage } from "@/components/ui/status-message";
import { useFlashMessage } from "@/components/ui/use-flash-message";
import { useHydrated } from "@/components/ui/use-hydrated";

/** A visitor's 'Add to Cart': says to sign in first and offers the way back to this product. */
export function SignInToAdd({ productId, className }: { productId: string; className: string }) {
  const hydrated = useHydrated();
  const flash = useFlashMessage();
  return (
    <div className="space-y-3">
      <Button variant="accent" className={className} disabled={!hydrated} onClick={() => flash.show(messages.cart.signInToAdd, "info")}>
        Add to Cart
      </Button>
      <StatusMessage message={flash.message} />
      {flash.message ? (
        <Link href={signInHref(`/products/${productId}`, "shop")} className="inline-block text-sm font-semibold text-brand-700 underline">
          Sign in to shop
        </Link>
      ) : null}
    </div>
  );
}
