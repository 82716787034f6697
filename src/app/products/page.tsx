import type { Metadata } from "next";
import { Link } from "@/components/ui/link";
import { AddToCart, type Viewer } from "@/components/cart/add-to-cart";
import { CatalogueControls } from "@/components/product/catalogue-controls";
import { ProductCard, ProductGrid } from "@/components/product/product-card";
import { MAX_PRODUCT_PAGE, PRODUCT_SORTS, type ProductSort } from "@/lib/constants";
import { messages } from "@/lib/messages";
import { site } from "@/server/settings/site";
import { caller } from "@/trpc/caller";
import { listProductsInput } from "@/server/catalogue/schemas";
import { getPageViewer } from "@/server/auth/guards";

export const metadata: Metadata = {
  title: "Products and services",
  description: `Shop ${site.name}: cleaning and laundry, risk consulting and recruitment, embroidery and branding, stationery and office supplies, and home-made food. Prices in rands.`,
  openGraph: { title: `Products and services · ${site.name}` },
};

function first(value: string | string[] | undefined) {
  return Array.isArray(value) ? value[0] : value;
}

function productsHref(query: { category?: string; q?: string; sort?: string; page?: number }) {
  const params = new URLSearchParams();
  if (query.category) params.set("category", query.category);
  if (query.q) params.set("q", query.q);
  if (query.sort && query.sort !== "newest") params.set("sort", query.sort);
  if (query.page && query.page > 1) params.set("page", String(query.page));
  return `/products${params.size ? `?${params}` : ""}`;
}

export default async function ProductsPage({ searchParams }: PageProps<"/products">) {
  const params = await searchParams;
  const rawSort = first(params.sort);
  const sort: ProductSort = PRODUCT_SORTS.includes(rawSort as ProductSort) ? (rawSort as ProductSort) : "newest";
  const rawPage = Number(first(params.page) ?? 1);
  const page = Number.isInteger(rawPage) && rawPage >= 1 && rawPage <= MAX_PRODUCT_PAGE ? rawPage : 1;
  const parsed = listProductsInput.safeParse({ category: first(params.category) || undefined, search: first(params.q) || undefined, sort, page });
  const input = parsed.success ? (parsed.data ?? {}) : { sort };
  const [{ products, hasNext }, categories, pageViewer] = await Promise.all([caller.catalogue.page(input), caller.catalogue.categories(), getPageViewer()]);
  const viewer: Viewer = pageViewer.kind === "visitor" ? "visitor" : pageViewer.role === "admin" ? "admin" : "customer";
  const current = input.page ?? 1;
  const pageHref = (to: number) => productsHref({ category: input.category, q: input.search, sort, page: to });
  const tabs = ["All", ...categories];
  const active = input.category ?? "All";

  return (
    <main className="mx-auto max-w-6xl px-4 py-10 sm:px-6">
      <h1 className="text-3xl font-bold sm:text-4xl">Products and services</h1>
      <p className="mt-2 max-w-2xl text-muted">Everything we offer, from a weekly clean to a party pack for twenty. Prices in rands.</p>

      {/* One row that scrolls sideways on a phone (snapping to a tab, no scrollbar taking room). */}
      <nav aria-label="Categories" className="mt-8 -mx-4 snap-x overflow-x-auto overscroll-x-contain px-4 [scrollbar-width:none] sm:mx-0 sm:px-0 sm:[scrollbar-width:auto]">
        <ul className="flex w-max gap-2 pb-2">
          {tabs.map((tab) => {
            const current = tab === active;
            return (
              <li key={tab} className="shrink-0 snap-start scroll-ml-4">
                <Link
                  href={productsHref({ category: tab === "All" ? undefined : tab, q: input.search, sort })}
                  aria-current={current ? "page" : undefined}
                  className={`flex min-h-11 items-center whitespace-nowrap rounded-full border px-4 text-sm font-medium transition ${
                    current ? "border-brand-700 bg-brand-700 text-white" : "border-line bg-white text-ink hover:border-brand-600"
                  }`}
                >
                  {tab}
                </Link>
              </li>
            );
          })}
        </ul>
      </nav>

      <div className="mt-6">
        <CatalogueControls category={input.category} search={input.search} sort={sort} />
      </div>

      <section aria-label="Products" className="mt-8">
        {products.length === 0 ? (
          <p className="rounded-2xl border border-dashed border-line bg-white px-6 py-12 text-center text-muted">
            {input.search ? messages.catalogue.noSearchMatches : messages.catalogue.emptyCategory}
          </p>
        ) : (
          <ProductGrid label="Product list">
            {products.map((product, index) => (
              <ProductCard key={product.id} product={product} priority={index < 4}>
                <AddToCart product={product} viewer={viewer} compact />
              </ProductCard>
            ))}
          </ProductGrid>
        )}
        {current > 1 || hasNext ? (
          <nav aria-label="Pages" className="mt-10 flex items-center justify-between gap-4">
            {current > 1 ? (
              <Link href={pageHref(current - 1)} rel="prev" className="rounded-xl border border-line bg-white px-4 py-2 text-sm font-semibold hover:border-brand-600">
                ← Previous
              </Link>
            ) : (
              <span />
            )}
            <span className="text-sm text-muted">Page {current}</span>
            {hasNext ? (
              <Link href={pageHref(current + 1)} rel="next" className="rounded-xl border border-line bg-white px-4 py-2 text-sm font-semibold hover:border-brand-600">
                Next →
              </Link>
            ) : (
              <span />
            )}
          </nav>
        ) : null}
      </section>
    </main>
  );
}
