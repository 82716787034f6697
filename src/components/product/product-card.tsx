import Link from "next/link";
import { formatRand } from "@/lib/money";
import type { CatalogueProduct } from "@/server/catalogue/catalogue-queries";

/** A product in a grid: image on top, name, category, price; the whole card links to its page. */
export function ProductCard({ product }: { product: CatalogueProduct }) {
  return (
    <li className="group overflow-hidden rounded-2xl border border-line bg-white shadow-sm transition hover:-translate-y-0.5 hover:shadow-md motion-reduce:transition-none motion-reduce:hover:translate-y-0">
      <Link href={`/products/${product.id}`} className="block focus-visible:outline-offset-[-3px]">
        <div className="aspect-[4/3] bg-brand-50">
          {product.imageUrl ? (
            // Seeded art is SVG; next/image arrives with the storefront's image pipeline.
            // eslint-disable-next-line @next/next/no-img-element
            <img src={product.imageUrl} alt={product.name} className="h-full w-full object-cover" loading="lazy" />
          ) : null}
        </div>
        <div className="space-y-1 p-4">
          <p className="text-xs font-medium uppercase tracking-wide text-brand-700">{product.category}</p>
          <h3 className="font-semibold text-ink">{product.name}</h3>
          <p className="tabular text-lg font-bold text-accent-700">{formatRand(product.price)}</p>
        </div>
      </Link>
    </li>
  );
}
