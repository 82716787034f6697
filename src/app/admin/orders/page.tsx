import type { Metadata } from "next";
import { OrderManagement } from "@/components/admin/orders/order-management";
import { messages } from "@/lib/messages";
import { orderFilterInput } from "@/server/orders/schemas";
import { requireAccess } from "@/server/auth/guards";
import { api, HydrateClient } from "@/trpc/server";

export const metadata: Metadata = { title: "Orders", robots: { index: false } };

export default async function AdminOrdersPage({ searchParams }: PageProps<"/admin/orders">) {
  await requireAccess("admin", "/admin/orders");
  const params = await searchParams;
  const parsed = orderFilterInput.safeParse({
    status: typeof params.status === "string" && params.status ? params.status : undefined,
    search: typeof params.q === "string" && params.q ? params.q : undefined,
    day: typeof params.day === "string" && params.day ? params.day : undefined,
  });
  const filter = parsed.success ? parsed.data : {};
  // The first page and the tab counts come from the server; further pages load in the browser.
  // Awaited: a prefetch still pending when the server renders gives "Loading..." in the HTML
  // while the browser, which has the streamed result before it hydrates, renders the orders (#418).
  await Promise.all([
    api.adminOrders.list.prefetchInfinite({ status: filter.status, search: filter.search, day: filter.day }),
    api.adminOrders.counts.prefetch({ search: filter.search, day: filter.day }),
  ]);
  return (
    <main className="mx-auto max-w-6xl px-4 py-10 sm:px-6">
      <h1 className="text-3xl font-bold">{messages.adminOrders.title}</h1>
      <div className="mt-6">
        <HydrateClient>
          <OrderManagement status={filter.status} search={filter.search} day={filter.day} />
        </HydrateClient>
      </div>
    </main>
  );
}
