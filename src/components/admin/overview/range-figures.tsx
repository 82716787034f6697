"use client";

import dynamic from "next/dynamic";
import { formatRand2 } from "@/lib/money";
import { overviewMessages as m } from "@/lib/messages";
import type { RouterOutputs } from "@/trpc/react";
import { Figure } from "./figure";
import { average, ordersText, shortDay, withFees } from "./overview-format";
import { RankTable } from "./rank-table";

// The charting library is this page's alone: loaded in the browser after the figures, never in the storefront's bundles.
const RevenueChart = dynamic(() => import("./revenue-chart"), {
  ssr: false,
  loading: () => <div className="h-64 w-full animate-pulse rounded-xl bg-brand-50" />,
});

type Range = RouterOutputs["overview"]["range"];

/** A range's figures: revenue, paid orders and their average, revenue per day (a chart, and a table for screen readers), the top products and business lines. */
export function RangeFigures({ range, from, to }: { range: Range; from: string; to: string }) {
  return (
    <>
      <dl className="grid grid-cols-1 gap-3 sm:grid-cols-3">
        <Figure testId="range-revenue" label="Revenue (paid orders)" value={formatRand2(range.revenue)} detail={`${ordersText(range.orders)} · ${withFees(range.deliveryFees)}`} />
        <Figure testId="range-orders" label="Paid orders" value={String(range.orders)} detail={`over ${range.days.length} days`} />
        <Figure testId="range-average" label="Average order value" value={average(range.revenue, range.orders)} detail="revenue ÷ paid orders" />
      </dl>
      <div className="rounded-2xl border border-line bg-white p-4">
        <h3 className="mb-2 font-semibold">Revenue per day</h3>
        {range.orders === 0 ? <p className="text-sm text-muted">{m.noSales}</p> : null}
        <RevenueChart days={range.days} />
        {/* The wrapper is what is hidden: a table ignores a 1px height and overflow, so one made
            sr-only itself still ran as tall as its rows, past the footer (a year: 9,870 px). */}
        <div className="sr-only">
          <table>
            <caption>Revenue per day, {shortDay(from)} to {shortDay(to)}</caption>
            <thead>
              <tr>
                <th scope="col">Day</th>
                <th scope="col">Revenue</th>
                <th scope="col">Paid orders</th>
              </tr>
            </thead>
            <tbody>
              {range.days.map((d) => (
                <tr key={d.day}>
                  <th scope="row">{shortDay(d.day)}</th>
                  <td>{formatRand2(d.revenue)}</td>
                  <td>{d.orders}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </div>
      <div className="grid gap-4 lg:grid-cols-2">
        <RankTable title="Top products" rows={range.topProducts.map((p) => ({ name: p.name, revenue: p.revenue, note: `${p.units} sold` }))} testId="top-products" />
        <RankTable
          title="Revenue per business line"
          rows={range.categories.map((c) => ({ name: c.name ?? "Other (deleted products)", revenue: c.revenue }))}
          testId="categories"
        />
      </div>
    </>
  );
}
