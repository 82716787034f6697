import { Link } from "@/components/ui/link";
import { messages } from "@/lib/messages";
import { formatRand } from "@/lib/money";
import { stockLabel } from "@/lib/stock";
import type { CatalogueProduct } from "@/server/catalogue/catalogue-queries";
import { ProductImage } from "./product-image";

/**
 * How wide a card's picture is shown, for the browser to pick from the srcset: two columns on a
 * phone (half the screen less the gaps), three from 1024 px, four in the 1152 px container from
 * 1280 px. At 390 px that is ~180 px, so a 3× phone takes the 640 px image, not a 1080 px one.
 */
export const PRODUCT_GRID_SIZES = "(min-width: 1280px) 270px, (min-width: 1024px) 33vw, 50vw";

/**
 * A product in a grid: image on top, name, category, price; the card links to its page, and
 * `children` (Add to Cart) sit under it. Compact on a phone, where two share a row.
 */
export function ProductCard({ product, priority = false, children }: { product: CatalogueProduct; priority?: boolean; children?: React.ReactNode }) {
  return (
    <li className="render-when-near group flex flex-col overflow-hidden rounded-2xl border border-line bg-white shadow-sm transition hover:-translate-y-0.5 hover:shadow-md motion-reduce:transition-none motion-reduce:hover:translate-y-0">
      <Link href={`/products/${product.id}`} className="block flex-1 focus-visible:outline-offset-[-3px]">
        <ProductImage src={product.imageUrl} alt={product.name} sizes={PRODUCT_GRID_SIZES} priority={priority} />
        <div className="space-y-1 p-3 sm:p-4">
          <p className="truncate text-[0.6875rem] font-semibold uppercase tracking-wide text-brand-700 sm:text-xs">{product.category}</p>
          <h3 className="text-sm font-semibold leading-snug text-ink [overflow-wrap:anywhere] group-hover:text-brand-800 sm:text-base">{product.name}</h3>
          <p className="tabular text-base font-bold text-accent-700 sm:text-lg">
            {product.priceFrom < product.priceTo ? messages.catalogue.priceFrom(formatRand(product.priceFrom)) : formatRand(product.priceFrom)}
          </p>
          {product.stock !== null && product.stock > 0 ? <p className="text-xs font-medium text-muted">{stockLabel(product.stock)}</p> : null}
        </div>
      </Link>
      {children ? <div className="px-3 pb-3 sm:px-4 sm:pb-4">{children}</div> : null}
    </li>
  );
}

export function ProductGrid({ children, label }: { children: React.ReactNode; label?: string }) {
  return (
    <ul aria-label={label} className="grid grid-cols-2 gap-3 sm:gap-6 lg:grid-cols-3 xl:grid-cols-4">
      {children}
    </ul>
  );
}
