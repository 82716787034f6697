import type { Metadata } from "next";
import { Link } from "@/components/ui/link";
import { LeadTimesPanel } from "@/components/admin/lead-times-panel";
import { ProductDashboard } from "@/components/admin/products/product-dashboard";
import { requireAccess } from "@/server/auth/guards";
import { api, HydrateClient } from "@/trpc/server";

export const metadata: Metadata = { title: "Dashboard", robots: { index: false } };

export default async function AdminDashboardPage() {
  await requireAccess("admin", "/admin/dashboard");
  // Awaited, not started in the background: the client component reads it with useQuery, and a
  // prefetch still pending when the server renders it gives "Loading..." in the HTML while the
  // browser, which has the streamed result before it hydrates, renders the data: React #418.
  await Promise.all([api.adminProducts.list.prefetch(), api.fulfilment.leadTimes.prefetch()]);
  return (
    <main className="mx-auto max-w-6xl px-4 py-10 sm:px-6">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-3xl font-bold">Product management</h1>
        <div className="flex gap-4">
          <Link href="/admin/messages" className="font-semibold text-brand-700 hover:underline">
            Contact messages
          </Link>
          <Link href="/products" className="font-semibold text-brand-700 hover:underline">
            Back to Products
          </Link>
        </div>
      </div>
      <div className="mt-8">
        <HydrateClient>
          <ProductDashboard />
          <div className="mt-8">
            <LeadTimesPanel />
          </div>
        </HydrateClient>
      </div>
    </main>
  );
}
