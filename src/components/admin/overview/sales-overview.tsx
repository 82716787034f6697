"use client";

import dynamic from "next/dynamic";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { formatAverageRand, formatRand2 } from "@/lib/money";
import { overviewMessages as m } from "@/lib/messages";
import { addDays } from "@/lib/days";
import { overviewRangeInput } from "@/server/overview/schemas";
import { api } from "@/trpc/react";
import { Button, buttonClasses } from "@/components/ui/button";
import { TextField } from "@/components/ui/form-field";

// The charting library is this page's alone: loaded in the browser after the figures, never in the storefront's bundles.
const RevenueChart = dynamic(() => import("./revenue-chart"), {
  ssr: false,
  loading: () => <div className="h-64 w-full animate-pulse rounded-xl bg-brand-50" />,
});

const dayFormat = new Intl.DateTimeFormat("en-ZA", { day: "numeric", month: "short", timeZone: "UTC" });
const dateTimeFormat = new Intl.DateTimeFormat("en-ZA", { dateStyle: "medium", timeStyle: "short", timeZone: "Africa/Johannesburg" });

/** "3 Nov" for a 2026-11-03 day. */
const shortDay = (day: string) => dayFormat.format(new Date(`${day}T00:00:00Z`));
const ordersText = (n: number) => `${n} order${n === 1 ? "" : "s"}`;
/** The part of a revenue figure that was delivery fees, counted apart from goods (issue 27). */
function withFees(fees: string): string {
  return `of which delivery fees ${formatRand2(fees)}`;
}

/** Revenue divided by orders, in the overview's one style (R0.00 when there were none). */
const average = formatAverageRand;

function Figure({ label, value, detail, testId }: { label: string; value: string; detail: string; testId: string }) {
  return (
    <div className="rounded-2xl border border-line bg-white p-4" data-testid={testId}>
      <dt className="text-sm font-medium text-muted">{label}</dt>
      <dd className="tabular mt-1 text-2xl font-bold text-ink">{value}</dd>
      <dd className="mt-1 text-sm text-muted">{detail}</dd>
    </div>
  );
}

/** The sales overview (admins): today and this week against the period before, the money outstanding, and a chosen range. */
export function SalesOverview({ from, to }: { from: string; to: string }) {
  const router = useRouter();
  const summary = api.overview.summary.useQuery();
  const range = api.overview.range.useQuery({ from, to });
  const [draft, setDraft] = useState({ from, to });
  const [error, setError] = useState<string | null>(null);

  function show(next: { from: string; to: string }) {
    const parsed = overviewRangeInput.safeParse(next);
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? m.rangeInvalid);
    setError(null);
    setDraft(parsed.data);
    router.replace(`/admin/overview?from=${parsed.data.from}&to=${parsed.data.to}`, { scroll: false });
  }

  const failed = summary.isError || range.isError;
  return (
    <div className="space-y-8">
      {failed ? (
        <p role="alert" className="text-danger">
          {m.loadFailed}
        </p>
      ) : null}

      <section aria-labelledby="at-a-glance">
        <h2 id="at-a-glance" className="text-xl font-bold">
          At a glance
        </h2>
        {summary.data ? (
          <dl className="mt-3 grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-4">
            <Figure
              testId="figure-today"
              label="Today"
              value={formatRand2(summary.data.periods.today.revenue)}
              detail={`${ordersText(summary.data.periods.today.orders)} · yesterday ${formatRand2(summary.data.periods.yesterday.revenue)} (${ordersText(summary.data.periods.yesterday.orders)})`}
            />
            <Figure
              testId="figure-week"
              label="This week"
              value={formatRand2(summary.data.periods.thisWeek.revenue)}
              detail={`${ordersText(summary.data.periods.thisWeek.orders)}, ${withFees(summary.data.periods.thisWeek.deliveryFees)} · last week ${formatRand2(summary.data.periods.lastWeek.revenue)} (${ordersText(summary.data.periods.lastWeek.orders)})`}
            />
            <Figure
              testId="figure-average"
              label="Average order this week"
              value={average(summary.data.periods.thisWeek.revenue, summary.data.periods.thisWeek.orders)}
              detail={`last week ${average(summary.data.periods.lastWeek.revenue, summary.data.periods.lastWeek.orders)}`}
            />
            <Figure
              testId="figure-outstanding"
              label="Awaiting payment"
              value={formatRand2(summary.data.outstanding.value)}
              detail={
                summary.data.outstanding.orders === 0
                  ? "no orders"
                  : `${ordersText(summary.data.outstanding.orders)} · oldest placed ${dateTimeFormat.format(new Date(summary.data.outstanding.oldest!))}`
              }
            />
          </dl>
        ) : (
          <p role="status" className="mt-3">
            Loading...
          </p>
        )}
      </section>

      <section aria-labelledby="range-heading" className="space-y-4">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <h2 id="range-heading" className="text-xl font-bold">
            {shortDay(from)} to {shortDay(to)}
          </h2>
          <a href={`/admin/overview/export?from=${from}&to=${to}`} download className={buttonClasses("outline")}>
            Download CSV
          </a>
        </div>
        <form
          className="flex flex-wrap items-end gap-3"
          aria-label="Choose the range"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            show(draft);
          }}
        >
          <TextField label="From" type="date" name="from" value={draft.from} onChange={(e) => setDraft((d) => ({ ...d, from: e.target.value }))} />
          <TextField label="To" type="date" name="to" value={draft.to} onChange={(e) => setDraft((d) => ({ ...d, to: e.target.value }))} />
          <Button type="submit">Show</Button>
          <Button type="button" variant="ghost" onClick={() => show({ from: addDays(to, -6), to })}>
            Last 7 days
          </Button>
          <Button type="button" variant="ghost" onClick={() => show({ from: addDays(to, -29), to })}>
            Last 30 days
          </Button>
        </form>
        {error ? (
          <p role="alert" className="text-sm text-danger">
            {error}
          </p>
        ) : null}

        {range.data ? (
          <>
            <dl className="grid grid-cols-1 gap-3 sm:grid-cols-3">
              <Figure
                testId="range-revenue"
                label="Revenue (paid orders)"
                value={formatRand2(range.data.revenue)}
                detail={`${ordersText(range.data.orders)} · ${withFees(range.data.deliveryFees)}`}
              />
              <Figure testId="range-orders" label="Paid orders" value={String(range.data.orders)} detail={`over ${range.data.days.length} days`} />
              <Figure testId="range-average" label="Average order value" value={average(range.data.revenue, range.data.orders)} detail="revenue ÷ paid orders" />
            </dl>
            <div className="rounded-2xl border border-line bg-white p-4">
              <h3 className="mb-2 font-semibold">Revenue per day</h3>
              {range.data.orders === 0 ? <p className="text-sm text-muted">{m.noSales}</p> : null}
              <RevenueChart days={range.data.days} />
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
                    {range.data.days.map((d) => (
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
              <RankTable
                title="Top products"
                rows={range.data.topProducts.map((p) => ({ name: p.name, revenue: p.revenue, note: `${p.units} sold` }))}
                testId="top-products"
              />
              <RankTable
                title="Revenue per business line"
                rows={range.data.categories.map((c) => ({ name: c.name ?? "Other (deleted products)", revenue: c.revenue }))}
                testId="categories"
              />
            </div>
          </>
        ) : (
          <p role="status">Loading...</p>
        )}
      </section>
    </div>
  );
}

/** A ranked list with a bar per row, scaled to the first; the amounts are text too. */
function RankTable({ title, rows, testId }: { title: string; rows: { name: string; revenue: string; note?: string }[]; testId: string }) {
  const top = rows.length > 0 ? Math.max(...rows.map((r) => Number(r.revenue))) : 0;
  return (
    <div className="rounded-2xl border border-line bg-white p-4" data-testid={testId}>
      <h3 className="mb-2 font-semibold">{title}</h3>
      {rows.length === 0 ? (
        <p className="text-sm text-muted">{m.noSales}</p>
      ) : (
        <ol className="space-y-2">
          {rows.map((row) => (
            <li key={row.name} className="text-sm">
              <div className="flex justify-between gap-3">
                <span className="min-w-0 break-words">{row.name}</span>
                <span className="tabular shrink-0 font-semibold">
                  {formatRand2(row.revenue)}
                  {row.note ? <span className="font-normal text-muted"> · {row.note}</span> : null}
                </span>
              </div>
              <div aria-hidden="true" className="mt-1 h-1.5 rounded-full bg-brand-50">
                <div className="h-1.5 rounded-full bg-brand-600" style={{ width: `${top > 0 ? Math.max(2, (Number(row.revenue) / top) * 100) : 0}%` }} />
              </div>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
