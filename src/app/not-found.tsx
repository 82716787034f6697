import { Link } from "@/components/ui/link";
import { headers } from "next/headers";
import { buttonClasses } from "@/components/ui/button";
import { messages } from "@/lib/messages";
import { NOT_FOUND_HEADER } from "@/server/catalogue/unknown-product-page";

export default async function NotFound() {
  // An unknown product's page load, rewritten here by the proxy so it is rendered in full (see unknown-product-page.ts).
  if ((await headers()).get(NOT_FOUND_HEADER) === "product") {
    return (
      <main className="mx-auto max-w-6xl px-4 py-20 text-center sm:px-6">
        <h1 className="text-3xl font-bold">{messages.catalogue.productNotFound}</h1>
        <p className="mt-3 text-muted">{messages.catalogue.productNotFoundDetail}</p>
        <Link href="/products" className={buttonClasses("primary", "mt-8")}>
          Browse all products
        </Link>
      </main>
    );
  }
  return (
    <main className="mx-auto max-w-6xl px-4 py-20 text-center sm:px-6">
      <h1 className="text-3xl font-bold">Page not found</h1>
      <p className="mt-3 text-muted">The page you were looking for is not here.</p>
      <Link href="/" className={buttonClasses("primary", "mt-8")}>
        Back to the home page
      </Link>
    </main>
  );
}
