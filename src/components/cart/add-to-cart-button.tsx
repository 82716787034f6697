"use client";

import Link from "next/link";
import { messages } from "@/lib/messages";
import { api } from "@/trpc/react";
import { Button } from "@/components/ui/button";
import { StatusMessage } from "@/components/ui/status-message";
import { useFlashMessage } from "@/components/ui/use-flash-message";

export type Viewer = "visitor" | "customer" | "admin";

/** 'Add to Cart': visitors are asked to sign in; customers add one; admins are not offered it. */
export function AddToCartButton({
  productId,
  available,
  viewer,
  compact = false,
}: {
  productId: string;
  available: boolean;
  viewer: Viewer;
  compact?: boolean;
}) {
  const utils = api.useUtils();
  const flash = useFlashMessage();
  const add = api.cart.add.useMutation({
    onSuccess: ({ message }) => {
      flash.show(message, "success");
      void utils.cart.invalidate();
    },
    onError: (error) => flash.show(error.message || messages.cart.addFailed, "error"),
  });

  if (viewer === "admin") return null;
  if (!available) return <p className="text-sm font-medium text-danger">{messages.cart.unavailable}</p>;

  function onClick() {
    if (viewer === "visitor") return flash.show(messages.cart.signInToAdd, "info");
    add.mutate({ productId });
  }

  return (
    <div className="space-y-3">
      <Button variant="accent" className={compact ? "w-full" : "w-full sm:w-auto"} onClick={onClick} disabled={add.isPending}>
        {add.isPending ? "Adding to Cart..." : "Add to Cart"}
      </Button>
      <StatusMessage message={flash.message} />
      {viewer === "visitor" && flash.message?.text === messages.cart.signInToAdd ? (
        <Link href={`/auth/signin?next=${encodeURIComponent(`/products/${productId}`)}`} className="inline-block text-sm font-semibold text-brand-700 underline">
          Sign in to shop
        </Link>
      ) : null}
    </div>
  );
}
