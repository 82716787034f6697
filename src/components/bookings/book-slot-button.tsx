"use client";

import { bookingMessages } from "@/lib/booking-messages";
import { storefrontMessages } from "@/lib/storefront-messages";
import { api } from "@/trpc/react";
import { Button } from "@/components/ui/button";
import { StatusMessage } from "@/components/ui/status-message";
import { useFlashMessage } from "@/components/ui/use-flash-message";
import { useHydrated } from "@/components/ui/use-hydrated";

/** A signed-in customer's 'Add to Cart' for a bookable service: holds the chosen time in the cart (cart.addBooking). */
export function BookSlotButton({ productId, startsAt, className }: { productId: string; startsAt: string | null; className: string }) {
  const hydrated = useHydrated();
  const utils = api.useUtils();
  const flash = useFlashMessage();
  const add = api.cart.addBooking.useMutation({
    onSuccess: ({ message }) => {
      flash.show(message, "success");
      void utils.cart.invalidate();
    },
    onError: (error) => flash.show(error.message || storefrontMessages.cart.addFailed, "error"),
  });

  return (
    <div className="space-y-3">
      <Button
        variant="accent"
        className={className}
        onClick={() => (startsAt ? add.mutate({ productId, startsAt }) : flash.show(bookingMessages.pickFirst, "info"))}
        disabled={!hydrated || add.isPending}
      >
        {add.isPending ? "Adding to Cart..." : "Add to Cart"}
      </Button>
      <StatusMessage message={flash.message} />
    </div>
  );
}
