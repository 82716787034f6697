"use client";

import { storefrontMessages as messages } from "@/lib/storefront-messages";
import { api } from "@/trpc/react";
import { Button } from "@/components/ui/button";
import { StatusMessage } from "@/components/ui/status-message";
import { useFlashMessage } from "@/components/ui/use-flash-message";
import { useHydrated } from "@/components/ui/use-hydrated";

/** A signed-in customer's 'Add to Cart': adds one (of the chosen variant, if any) and refreshes the cart badge. */
export function AddToCartButton({
  productId,
  variantId,
  personalisation,
  disabled = false,
  className,
}: {
  productId: string;
  variantId?: string;
  personalisation?: Record<string, string>;
  disabled?: boolean;
  className: string;
}) {
  const hydrated = useHydrated();
  const utils = api.useUtils();
  const flash = useFlashMessage();
  const add = api.cart.add.useMutation({
    onSuccess: ({ message }) => {
      flash.show(message, "success");
      void utils.cart.invalidate();
    },
    onError: (error) => flash.show(error.message || messages.cart.addFailed, "error"),
  });

  return (
    <div className="space-y-3">
      <Button variant="accent" className={className} onClick={() => add.mutate({ productId, variantId, personalisation })} disabled={!hydrated || disabled || add.isPending}>
        {add.isPending ? "Adding to Cart..." : "Add to Cart"}
      </Button>
      <StatusMessage message={flash.message} />
    </div>
  );
}
