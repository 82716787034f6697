import { Link } from "@/components/ui/link";
import { quoteMessages as m } from "@/lib/messages";
import { buttonClasses } from "@/components/ui/button";

/**
 * "Request a quote" for a product (docs/quotes.md): a plain link to the request form, prefilled
 * with the product; a visitor is asked to sign in first on the way. Admins are not offered it.
 */
export function RequestQuoteLink({ productId, viewer, primary = false, className = "" }: { productId: string; viewer: "visitor" | "customer" | "admin"; primary?: boolean; className?: string }) {
  if (viewer === "admin") return null;
  return (
    <Link href={`/quotes/new?product=${encodeURIComponent(productId)}`} className={buttonClasses(primary ? "accent" : "outline", className)} data-testid="request-quote">
      {m.requestButton}
    </Link>
  );
}
