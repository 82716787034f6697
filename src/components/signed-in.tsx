"use client";

import dynamic from "next/dynamic";

/*
 * Client components that only signed-in users see on pages everyone visits (the header's
 * picture, greeting and badge, live updates, a customer's Add to Cart) and the tRPC
 * and viewer providers they need. Each is
 * loaded on demand: a server component that renders one for a signed-in user pulls its chunk in,
 * while a visitor's page never references it, so visitors load neither tRPC nor React Query.
 */
export const TRPCReactProvider = dynamic(() => import("@/trpc/react").then((m) => m.TRPCReactProvider));
export const CartCount = dynamic(() => import("@/components/layout/cart-count").then((m) => m.CartCount));
export const LiveUpdates = dynamic(() => import("@/components/live/live-updates").then((m) => m.LiveUpdates));
export const AddToCartButton = dynamic(() => import("@/components/cart/add-to-cart-button").then((m) => m.AddToCartButton));
export const ViewerProvider = dynamic(() => import("@/components/layout/page-viewer").then((m) => m.ViewerProvider));
export const AccountSummary = dynamic(() => import("@/components/layout/page-viewer").then((m) => m.AccountSummary));
export const ArrivalNotice = dynamic(() => import("@/components/auth/arrival-notice").then((m) => m.ArrivalNotice));
