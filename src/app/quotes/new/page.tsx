import type { Metadata } from "next";
import { RequestQuoteForm, type RequestedItem } from "@/components/quotes/request-quote-form";
import { variantLineName } from "@/lib/variants";
import { quoteMessages as m } from "@/lib/messages";
import { requireAccess } from "@/server/auth/guards";
import { caller } from "@/trpc/caller";

export const metadata: Metadata = { title: "Request a quote", robots: { index: false } };

/** What the form starts with: the cart's lines (`?from=cart`), or a product's variant (`?product=&variant=`). */
async function startingItems(params: { from?: string | string[]; product?: string | string[]; variant?: string | string[] }): Promise<RequestedItem[]> {
  if (params.from === "cart") {
    const cart = await caller.cart.list();
    return cart.lines.filter((line) => line.slotStartsAt === null).map((line) => ({ variantId: line.variantId, name: line.name, quantity: line.quantity }));
  }
  if (typeof params.product !== "string") return [];
  const product = await caller.catalogue.byId({ id: params.product }).catch(() => null);
  if (!product) return [];
  const variant = product.variants.find((v) => v.id === params.variant) ?? product.variants[0];
  return variant ? [{ variantId: variant.id, name: variantLineName(product.name, variant.optionValues), quantity: 1 }] : [];
}

/** "Request a quote" (docs/quotes.md): for signed-in customers; from a product, the cart, or blank. */
export default async function RequestQuotePage({ searchParams }: PageProps<"/quotes/new">) {
  await requireAccess("customer", "/quotes/new");
  const items = await startingItems(await searchParams);
  return (
    <main className="mx-auto max-w-3xl px-4 py-10 sm:px-6">
      <h1 className="text-3xl font-bold sm:text-4xl">{m.title}</h1>
      <p className="mt-2 text-muted">{m.intro}</p>
      <section className="mt-8 rounded-3xl border border-line bg-white p-6">
        <RequestQuoteForm initialItems={items} />
      </section>
    </main>
  );
}
