import Link from "next/link";
import { formatRand } from "@/lib/money";
import type { CatalogueProduct } from "@/server/catalogue/catalogue-queries";
import { ProductImage } from "./product-image";

export const PRODUCT_GRID_SIZES = "(min-width: 1280px) 25vw, (min-width: 1024px) 33vw, (min-width: 640px) 50vw, 100vw";

/** A product in a grid: image on top, name, category, price; the card links to its page. */
export function ProductCard({ product, priority = false, children }: { product: CatalogueProduct; priority?: boolean; children?: React.ReactNode }) {
  return (
    <li className="group flex flex-col overflow-hidden rounded-2xl border border-line bg-white shadow-sm transition hover:-translate-y-0.5 hover:shadow-md motion-reduce:transition-none motion-reduce:hover:translate-y-0">
      <Link href={`/products/${product.id}`} className="block flex-1 focus-visible:outline-offset-[-3px]">
        <ProductImage src={product.imageUrl} alt={product.name} sizes={PRODUCT_GRID_SIZES} priority={priority} />
        <div className="space-y-1 p-4">
          <p className="text-xs font-semibold uppercase tracking-wide text-brand-700">{product.category}</p>
          <h3 className="font-semibold text-ink group-hover:text-brand-800">{product.name}</h3>
          <p className="tabular text-lg font-bold text-accent-700">{formatRand(product.price)}</p>
        </div>
      </Link>
      {children ? <div className="px-4 pb-4">{children}</div> : null}
    </li>
  );
}

export function ProductGrid({ children, label }: { children: React.ReactNode; label?: string }) {
  return (
    <ul aria-label={label} className="grid grid-cols-1 gap-6 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4">
      {children}
    </ul>
  );
}
