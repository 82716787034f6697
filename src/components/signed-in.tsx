"use client";

import { lazy, type ComponentType } from "react";
import { SIGNED_IN_MARK } from "@/lib/page-viewer";

/*
 * Client components that only signed-in users see on pages everyone visits (the header's
 * picture, greeting and badge, live updates, a customer's Add to Cart and back-in-stock request) and the tRPC
 * and viewer providers they need. Each is
 * loaded on demand: a server component that renders one for a signed-in user pulls its chunk in,
 * while a visitor's page never references it, so visitors load neither tRPC nor React Query.
 *
 * React's `lazy`, not `next/dynamic` (which is `lazy` plus preload hints taken from each page's
 * react-loadable-manifest.json): Turbopack (Next 16.4) writes into the manifest of a page that
 * already holds some of a component's modules (/products, a product page) chunk names computed
 * for that page, but emits only the chunks this shared module asks for, so every such page
 * preloaded two scripts that do not exist (404s). The chunks this module imports are the ones
 * written. On a signed-in page they are all fetched as soon as this module runs (the layout marks
 * such a page, SIGNED_IN_MARK), as next/dynamic's preloads did, not one by one as React meets them.
 */
const loaders: (() => Promise<unknown>)[] = [];

/** A component whose code is fetched the first time it renders (a function component around `lazy`: a client reference must resolve to a component, not a lazy object). */
function loadedOnUse<P extends object>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  let loading: Promise<ComponentType<P>> | undefined;
  const start = () => (loading ??= load());
  loaders.push(start);
  const Lazy = lazy(() => start().then((component) => ({ default: component })));
  function LoadedOnUse(props: P) {
    return <Lazy {...props} />;
  }
  return LoadedOnUse;
}

export const TRPCReactProvider = loadedOnUse(() => import("@/trpc/react").then((m) => m.TRPCReactProvider));
export const CartCount = loadedOnUse(() => import("@/components/layout/cart-count").then((m) => m.CartCount));
export const LiveUpdates = loadedOnUse(() => import("@/components/live/live-updates").then((m) => m.LiveUpdates));
export const AddToCartButton = loadedOnUse(() => import("@/components/cart/add-to-cart-button").then((m) => m.AddToCartButton));
export const BookSlotButton = loadedOnUse(() => import("@/components/bookings/book-slot-button").then((m) => m.BookSlotButton));
export const PersonalisationFile = loadedOnUse(() => import("@/components/cart/personalisation-file").then((m) => m.PersonalisationFile));
export const BackInStockButton = loadedOnUse(() => import("@/components/product/back-in-stock-button").then((m) => m.BackInStockButton));
export const ViewerProvider = loadedOnUse(() => import("@/components/layout/page-viewer").then((m) => m.ViewerProvider));
export const AccountSummary = loadedOnUse(() => import("@/components/layout/page-viewer").then((m) => m.AccountSummary));
export const ArrivalNotice = loadedOnUse(() => import("@/components/auth/arrival-notice").then((m) => m.ArrivalNotice));

if (typeof document !== "undefined" && document.querySelector(`meta[name="${SIGNED_IN_MARK}"]`)) {
  for (const start of loaders) void start();
}
