import type { Metadata } from "next";
import { Link } from "@/components/ui/link";
import { notFound } from "next/navigation";
import { AddToCart, type Viewer } from "@/components/cart/add-to-cart";
import { RequestQuoteLink } from "@/components/quotes/request-quote-link";
import { BackInStock } from "@/components/product/back-in-stock";
import { ProductCard, ProductGrid } from "@/components/product/product-card";
import { ProductGallery } from "@/components/product/product-gallery";
import { VariantPicker } from "@/components/product/variant-picker";
import { toSlotChoices } from "@/components/bookings/slot-choices";
import { SlotPicker } from "@/components/bookings/slot-picker";
import { BOOKING_DAYS_SHOWN } from "@/lib/constants";
import { messages } from "@/lib/messages";
import { CHANGES_BY_THE_CLOCK } from "@/lib/page-viewer";
import { canBuy, stockLabel } from "@/lib/stock";
import { formatRand } from "@/lib/money";
import { site } from "@/server/settings/site";
import { getPageViewer } from "@/server/auth/guards";
import { caller } from "@/trpc/caller";
import { findProduct } from "./find-product";

export async function generateMetadata({ params }: PageProps<"/products/[id]">): Promise<Metadata> {
  const { id } = await params;
  const product = await findProduct(id);
  if (!product) return { title: "Product not found" };
  return {
    title: product.name,
    description: product.description.slice(0, 160),
    openGraph: {
      title: `${product.name} · ${site.name}`,
      description: product.description.slice(0, 200),
      images: product.imageUrl ? [{ url: product.imageUrl, alt: product.name }] : undefined,
    },
  };
}

export default async function ProductPage({ params }: PageProps<"/products/[id]">) {
  const { id } = await params;
  // The layout has found it already (once per request): a known product's id is a valid input below.
  const product = await findProduct(id);
  if (!product) notFound();
  const [related, pageViewer, pictures] = await Promise.all([caller.catalogue.related({ id: product.id }), getPageViewer(), caller.catalogue.pictures({ id: product.id })]);
  const viewer: Viewer = pageViewer.kind === "visitor" ? "visitor" : pageViewer.role === "admin" ? "admin" : "customer";
  // A bookable service's free times, fresh on every request (docs/bookings.md).
  const slots =
    product.bookable && product.available
      ? toSlotChoices(await caller.bookings.freeSlots({ productId: product.id, days: BOOKING_DAYS_SHOWN }))
      : null;

  const jsonLd = {
    "@context": "https://schema.org",
    "@type": "Product",
    name: product.name,
    description: product.description,
    category: product.category,
    image: pictures.length > 1 ? pictures.map((picture) => picture.url) : (product.imageUrl ?? undefined),
    offers: product.hasOptions
      ? {
          "@type": "AggregateOffer",
          lowPrice: product.priceFrom.toFixed(2),
          highPrice: product.priceTo.toFixed(2),
          offerCount: product.variants.filter(canBuy).length,
          priceCurrency: "ZAR",
          availability: product.available && product.variants.some(canBuy) ? "https://schema.org/InStock" : "https://schema.org/OutOfStock",
        }
      : {
          "@type": "Offer",
          price: product.price.toFixed(2),
          priceCurrency: "ZAR",
          availability: product.available && product.stock !== 0 ? "https://schema.org/InStock" : "https://schema.org/OutOfStock",
        },
  };
  const stock = stockLabel(product.stock);

  return (
    <main className="mx-auto max-w-6xl px-4 py-10 sm:px-6">
      <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: JSON.stringify(jsonLd).replace(/</g, "\\u003c") }} />
      <nav aria-label="Breadcrumb" className="text-sm text-muted">
        <Link href="/products" className="hover:underline">
          Products
        </Link>{" "}
        /{" "}
        <Link href={`/products?category=${encodeURIComponent(product.category)}`} className="hover:underline">
          {product.category}
        </Link>
      </nav>

      <article className="mt-6 grid gap-8 md:grid-cols-2 md:gap-12">
        <ProductGallery id="product-pictures" pictures={pictures} productName={product.name} fallbackUrl={product.imageUrl} sizes="(min-width: 768px) 50vw, 100vw" />
        <div className="space-y-5">
          <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">{product.category}</p>
          <h1 className="text-3xl font-bold sm:text-4xl">{product.name}</h1>
          <p className="tabular text-3xl font-bold text-accent-700">
            {product.priceFrom < product.priceTo ? messages.catalogue.priceFrom(formatRand(product.priceFrom)) : formatRand(product.priceFrom)}
          </p>
          <p className="text-lg leading-relaxed text-muted">{product.description}</p>
          {product.quoteMode === "instead" && product.available ? (
            <RequestQuoteLink productId={product.id} viewer={viewer} primary />
          ) : slots ? (
            <div {...{ [CHANGES_BY_THE_CLOCK]: "" }}>
              <SlotPicker productId={product.id} slots={slots} viewer={viewer} />
            </div>
          ) : (product.hasOptions || product.personalisation.length > 0) && product.available ? (
            <VariantPicker galleryId="product-pictures" productId={product.id} options={product.options} variants={product.variants} personalisation={product.personalisation} viewer={viewer} />
          ) : (
            <>
              {product.available && stock && product.stock !== 0 ? <p className="text-sm font-medium text-muted">{stock}</p> : null}
              <AddToCart product={product} viewer={viewer} />
              {product.available && product.stock === 0 && product.variants[0] ? <BackInStock productId={product.id} variantId={product.variants[0].id} viewer={viewer} /> : null}
            </>
          )}
          {product.quoteMode === "beside" && product.available ? <RequestQuoteLink productId={product.id} viewer={viewer} /> : null}
        </div>
      </article>

      {related.length > 0 ? (
        <section aria-labelledby="related-heading" className="mt-16">
          <h2 id="related-heading" className="text-2xl font-bold">
            You may also like
          </h2>
          <div className="mt-6">
            <ProductGrid>
              {related.map((item) => (
                <ProductCard key={item.id} product={item}>
                  <AddToCart product={item} viewer={viewer} compact />
                </ProductCard>
              ))}
            </ProductGrid>
          </div>
        </section>
      ) : null}
    </main>
  );
}
