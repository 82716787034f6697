import { Link } from "@/components/ui/link";
import { ServiceIcon } from "@/components/home/service-icon";
import { Testimonials } from "@/components/home/testimonials";
import { ProductCard, ProductGrid } from "@/components/product/product-card";
import { buttonClasses } from "@/components/ui/button";
import { SERVICES, TESTIMONIALS } from "@/lib/business-content";
import { site } from "@/server/settings/site";
import { caller } from "@/trpc/caller";

const FEATURED = 8;

export default async function HomePage() {
  const products = await caller.catalogue.list({ perPage: FEATURED });

  return (
    <main>
      <section className="bg-brand-800 text-white">
        <div className="mx-auto max-w-6xl px-4 py-16 sm:px-6 sm:py-24">
          <p className="text-sm font-semibold uppercase tracking-widest text-brand-100">{site.name}</p>
          <h1 className="mt-4 max-w-3xl text-4xl font-bold leading-tight sm:text-6xl">My World. Your World. Our World.</h1>
          <p className="mt-6 max-w-2xl text-lg text-brand-50">{site.description}</p>
          <div className="mt-8 flex flex-wrap gap-3">
            <Link href="/products" className={buttonClasses("accent")}>
              Shop products and services
            </Link>
            <Link href="/quotes/new" className={buttonClasses("onDark")}>
              Ask for a quote
            </Link>
          </div>
        </div>
      </section>

      <div className="mx-auto max-w-6xl space-y-16 px-4 py-14 sm:px-6">
        <section aria-labelledby="about-heading" className="grid gap-6 md:grid-cols-2 md:items-center">
          <div>
            <h2 id="about-heading" className="text-2xl font-bold sm:text-3xl">
              One local team for the things your home and business need
            </h2>
          </div>
          <div className="space-y-4 text-muted">
            <p>
              We are a small South African business that started with cleaning and grew with our customers: today we also consult on
              risk, recruit, embroider, supply offices and bake. One trusted team, one invoice, and people who answer the phone.
            </p>
            <Link href="/about" className="font-semibold text-brand-700 underline-offset-2 hover:underline">
              More about us
            </Link>
          </div>
        </section>

        <section aria-labelledby="services-heading">
          <h2 id="services-heading" className="text-2xl font-bold sm:text-3xl">
            What we do
          </h2>
          <ul className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-5">
            {SERVICES.map((service) => (
              <li key={service.name}>
                <Link
                  href={`/products?category=${encodeURIComponent(service.category)}`}
                  className="flex h-full flex-col gap-3 rounded-2xl border border-line bg-white p-5 transition hover:border-brand-600 hover:shadow-sm"
                >
                  <span className="flex h-12 w-12 items-center justify-center rounded-xl bg-brand-50 text-brand-700">
                    <ServiceIcon icon={service.icon} />
                  </span>
                  <span className="font-semibold text-ink">{service.name}</span>
                  <span className="text-sm text-muted">{service.summary}</span>
                </Link>
              </li>
            ))}
          </ul>
        </section>

        <section aria-labelledby="products-heading">
          <div className="flex items-end justify-between gap-4">
            <h2 id="products-heading" className="text-2xl font-bold sm:text-3xl">
              Our products and services
            </h2>
            <Link href="/products" className="shrink-0 font-semibold text-brand-700 underline-offset-2 hover:underline">
              View all
            </Link>
          </div>
          <div className="mt-6">
            <ProductGrid label="Featured products">
              {products.map((product) => (
                <ProductCard key={product.id} product={product} />
              ))}
            </ProductGrid>
          </div>
        </section>

        <Testimonials items={TESTIMONIALS} />
      </div>
    </main>
  );
}
