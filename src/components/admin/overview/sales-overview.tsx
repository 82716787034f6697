"use client";

import { overviewMessages as m } from "@/lib/messages";
import { api } from "@/trpc/react";
import { buttonClasses } from "@/components/ui/button";
import { AtAGlance } from "./at-a-glance";
import { shortDay } from "./overview-format";
import { RangeFigures } from "./range-figures";
import { QuoteFigures } from "./quote-figures";
import { RangeForm } from "./range-form";

/** The sales overview (admins): today and this week against the period before, the money outstanding, and a chosen range. */
export function SalesOverview({ from, to }: { from: string; to: string }) {
  const summary = api.overview.summary.useQuery();
  const range = api.overview.range.useQuery({ from, to });

  const failed = summary.isError || range.isError;
  return (
    <div className="space-y-8">
      {failed ? (
        <p role="alert" className="text-danger">
          {m.loadFailed}
        </p>
      ) : null}

      <AtAGlance summary={summary.data} />

      <section aria-labelledby="range-heading" className="space-y-4">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <h2 id="range-heading" className="text-xl font-bold">
            {shortDay(from)} to {shortDay(to)}
          </h2>
          <a href={`/admin/overview/export?from=${from}&to=${to}`} download className={buttonClasses("outline")}>
            Download CSV
          </a>
        </div>
        <RangeForm from={from} to={to} />
        {range.data ? <RangeFigures range={range.data} from={from} to={to} /> : <p role="status">Loading...</p>}
        <QuoteFigures from={from} to={to} />
      </section>
    </div>
  );
}
