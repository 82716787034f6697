import { Link } from "@/components/ui/link";
import { messages } from "@/lib/messages";
import { buttonClasses } from "@/components/ui/button";

export default function ProductNotFound() {
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
