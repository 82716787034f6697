import { connection } from "next/server";
import { ProductCard } from "@/components/product/product-card";
import { site } from "@/lib/site";
import { api } from "@/trpc/server";

export default async function HomePage() {
  await connection(); // data is read at request time, never at build time
  const products = await api.catalogue.list();

  return (
    <main className="mx-auto max-w-6xl px-4 py-10 sm:px-6">
      <section className="rounded-3xl bg-brand-800 px-6 py-14 text-white sm:px-10">
        <p className="text-sm font-semibold uppercase tracking-widest text-brand-100">{site.name}</p>
        <h1 className="mt-3 text-4xl font-bold sm:text-5xl">{site.tagline}</h1>
        <p className="mt-4 max-w-2xl text-brand-50">{site.description}</p>
      </section>

      <section aria-labelledby="products-heading" className="mt-12">
        <h2 id="products-heading" className="text-2xl font-bold">
          Our products and services
        </h2>
        <ul className="mt-6 grid grid-cols-1 gap-6 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4">
          {products.map((product) => (
            <ProductCard key={product.id} product={product} />
          ))}
        </ul>
      </section>
    </main>
  );
}
