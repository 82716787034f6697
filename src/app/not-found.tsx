import Link from "next/link";
import { buttonClasses } from "@/components/ui/button";

export default function NotFound() {
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
