import type { Metadata } from "next";
import { Link } from "@/components/ui/link";
import { PrintButton } from "@/components/admin/print-button";
import { formatDay, shopDay } from "@/lib/days";
import { formatRand } from "@/lib/money";
import { messages } from "@/lib/messages";
import { requireAccess } from "@/server/auth/guards";
import { runSheetInput } from "@/server/fulfilment/schemas";
import { caller } from "@/trpc/caller";
import { PersonalisationList } from "@/components/orders/personalisation-list";
import { RunSheetBookings } from "@/components/admin/bookings/run-sheet-bookings";

const m = messages.fulfilment;

export const metadata: Metadata = { title: "Run sheet", robots: { index: false } };

/** A day's bookings, deliveries and collections, print-friendly (docs/architecture.md#delivery-and-collection): /admin/orders/run-sheet?day=2026-12-02. */
export default async function RunSheetPage({ searchParams }: PageProps<"/admin/orders/run-sheet">) {
  await requireAccess("admin", "/admin/orders/run-sheet");
  const params = await searchParams;
  const parsed = runSheetInput.safeParse({ day: typeof params.day === "string" ? params.day : shopDay(1) });
  const day = parsed.success ? parsed.data.day : shopDay(1);
  const { orders } = await caller.fulfilment.runSheet({ day });
  // The day's bookings beside its deliveries (docs/bookings.md).
  const { bookings } = await caller.bookings.calendar({ from: day, days: 1 });
  const deliveries = orders.filter((order) => order.method === "delivery");
  const collections = orders.filter((order) => order.method === "collection");
  return (
    <main className="mx-auto max-w-4xl px-4 py-10 sm:px-6 print:max-w-none print:p-0">
      <div className="flex flex-wrap items-center justify-between gap-3 print:hidden">
        <Link href={`/admin/orders?day=${day}`} className="text-sm font-medium text-brand-800 underline">
          Back to the orders of {formatDay(day)}
        </Link>
        <PrintButton />
      </div>
      <h1 className="mt-4 text-3xl font-bold print:text-2xl">{m.runSheetTitle(formatDay(day))}</h1>
      {orders.length === 0 && bookings.length === 0 ? <p className="mt-6 text-muted">{m.runSheetEmpty}</p> : null}
      <RunSheetBookings bookings={bookings} />
      {[
        ["Deliveries", deliveries],
        ["Collections", collections],
      ].map(([title, list]) =>
        (list as typeof orders).length > 0 ? (
          <section key={title as string} className="mt-8 break-inside-avoid">
            <h2 className="text-xl font-bold">
              {title as string} ({(list as typeof orders).length})
            </h2>
            <table className="mt-3 w-full border-collapse text-sm" data-testid={`run-sheet-${(title as string).toLowerCase()}`}>
              <thead>
                <tr className="border-b-2 border-ink text-left">
                  <th className="py-2 pr-3">Order</th>
                  <th className="py-2 pr-3">Customer</th>
                  {title === "Deliveries" ? <th className="py-2 pr-3">Address</th> : null}
                  <th className="py-2 pr-3">Items</th>
                  <th className="py-2 text-right">Total</th>
                  <th className="py-2 pl-3 print:w-12">Done</th>
                </tr>
              </thead>
              <tbody>
                {(list as typeof orders).map((order) => (
                  <tr key={order.id} className="border-b border-line align-top">
                    <td className="tabular py-2 pr-3 font-semibold">
                      {order.reference}
                      <span className="block text-xs font-normal text-muted">{messages.adminStatus[order.status as keyof typeof messages.adminStatus]}</span>
                    </td>
                    <td className="py-2 pr-3">
                      {order.customerName}
                      <span className="block break-all text-xs text-muted">{order.customerEmail}</span>
                    </td>
                    {title === "Deliveries" ? (
                      <td className="py-2 pr-3">
                        {order.address}
                        {order.area ? <span className="block text-xs text-muted">{order.area}</span> : null}
                      </td>
                    ) : null}
                    <td className="py-2 pr-3">
                      {order.items.map((item, index) => (
                        <span key={index} className="block">
                          {item.quantity} × {item.name}
                          <PersonalisationList entries={item.personalisation} />
                        </span>
                      ))}
                    </td>
                    <td className="tabular py-2 text-right">{formatRand(order.total)}</td>
                    <td className="py-2 pl-3">
                      <span aria-hidden className="inline-block size-5 rounded border border-ink" />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        ) : null,
      )}
    </main>
  );
}
