import type { Metadata } from "next";
import { CheckoutView } from "@/components/checkout/checkout-view";
import { requireAccess } from "@/server/auth/guards";
import { api, HydrateClient } from "@/trpc/server";

export const metadata: Metadata = { title: "Checkout", robots: { index: false } };

export default async function CheckoutPage() {
  await requireAccess("customer", "/checkout");
  const [start] = await Promise.all([api.checkout.start(), api.cart.list.prefetch(), api.messaging.myConsents.prefetch()]);
  return (
    <main className="mx-auto max-w-6xl px-4 py-10 sm:px-6">
      <h1 className="text-3xl font-bold sm:text-4xl">Checkout</h1>
      <div className="mt-8">
        <HydrateClient>
          <CheckoutView start={start} />
        </HydrateClient>
      </div>
    </main>
  );
}
