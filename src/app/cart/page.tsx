import type { Metadata } from "next";
import { CartView } from "@/components/cart/cart-view";
import { requireAccess } from "@/server/auth/guards";
import { api, HydrateClient } from "@/trpc/server";

export const metadata: Metadata = { title: "Your cart", robots: { index: false } };

export default async function CartPage() {
  await requireAccess("customer", "/cart");
  // Awaited, not started in the background: the client component reads it with useQuery, and a
  // prefetch still pending when the server renders it gives "Loading..." in the HTML while the
  // browser, which has the streamed result before it hydrates, renders the data: React #418.
  await api.cart.list.prefetch();
  return (
    <main className="mx-auto max-w-6xl px-4 py-10 sm:px-6">
      <h1 className="text-3xl font-bold sm:text-4xl">Your cart</h1>
      <div className="mt-8">
        <HydrateClient>
          <CartView />
        </HydrateClient>
      </div>
    </main>
  );
}
