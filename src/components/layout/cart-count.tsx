"use client";

import { cartBadgeDisplay, VIEWER_SLOTS } from "@/lib/page-viewer";
import { api } from "@/trpc/react";
import { useViewer } from "./page-viewer";

/**
 * How many items a signed-in customer's cart holds, kept current by live updates. The page
 * brings the count with it (no request after the first paint); it is fetched again once stale
 * or when a change is heard. Hidden at zero; in a role's template, the slots.
 */
export function CartCount() {
  const viewer = useViewer();
  const count = api.cart.count.useQuery(undefined, { staleTime: 5_000, initialData: viewer?.cartCount, enabled: viewer !== null });
  const value = viewer ? (count.data ?? viewer.cartCount) : null;
  return (
    <span
      className={`tabular ml-1.5 ${value === null ? VIEWER_SLOTS.cartDisplay : cartBadgeDisplay(value)} min-w-6 items-center justify-center rounded-full bg-accent-600 px-1.5 text-xs font-bold text-white`}
      data-testid="cart-count"
    >
      <span className="sr-only">(</span>
      {value === null ? VIEWER_SLOTS.cartCount : value}
      <span className="sr-only"> items)</span>
    </span>
  );
}
