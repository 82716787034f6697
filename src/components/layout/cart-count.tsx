"use client";

import { api } from "@/trpc/react";

/** How many items a signed-in customer's cart holds, kept current by live updates. */
export function CartCount() {
  const count = api.cart.count.useQuery(undefined, { staleTime: 5_000 });
  if (!count.data) return null;
  return (
    <span className="tabular ml-1.5 inline-flex min-w-6 items-center justify-center rounded-full bg-accent-600 px-1.5 text-xs font-bold text-white" data-testid="cart-count">
      <span className="sr-only">(</span>
      {count.data}
      <span className="sr-only"> items)</span>
    </span>
  );
}
