import type { Metadata } from "next";
import { SalesOverview } from "@/components/admin/overview/sales-overview";
import { overviewMessages } from "@/lib/messages";
import { requireAccess } from "@/server/auth/guards";
import { defaultRange } from "@/server/overview/schemas";
import { overviewRangeInput } from "@/server/overview/schemas";
import { api, HydrateClient } from "@/trpc/server";

export const metadata: Metadata = { title: overviewMessages.title, robots: { index: false } };

/** The sales overview (issue 26): how the shop is doing, from the live orders. */
export default async function AdminOverviewPage({ searchParams }: PageProps<"/admin/overview">) {
  await requireAccess("admin", "/admin/overview");
  const params = await searchParams;
  const chosen = overviewRangeInput.safeParse({ from: params.from, to: params.to });
  const range = chosen.success ? chosen.data : defaultRange(new Date());
  // Awaited, as the other admin pages do: a prefetch still pending at render would hydrate differently (#418).
  await Promise.all([api.overview.summary.prefetch(), api.overview.range.prefetch(range)]);
  return (
    <main className="mx-auto max-w-6xl px-4 py-10 sm:px-6">
      <h1 className="text-3xl font-bold">{overviewMessages.title}</h1>
      <p className="mt-2 text-muted">Sales from paid orders, by South African day, straight from the orders as they are now.</p>
      <div className="mt-6">
        <HydrateClient>
          <SalesOverview key={`${range.from}:${range.to}`} from={range.from} to={range.to} />
        </HydrateClient>
      </div>
    </main>
  );
}
