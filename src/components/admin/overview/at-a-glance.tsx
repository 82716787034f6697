import { formatDateTime } from "@/lib/days";
import { formatRand2 } from "@/lib/money";
import type { RouterOutputs } from "@/trpc/react";
import { Figure } from "./figure";
import { average, ordersText, withFees } from "./overview-format";

/** Today and this week against the day and week before, and the money awaiting payment. */
export function AtAGlance({ summary }: { summary: RouterOutputs["overview"]["summary"] | undefined }) {
  return (
    <section aria-labelledby="at-a-glance">
      <h2 id="at-a-glance" className="text-xl font-bold">
        At a glance
      </h2>
      {summary ? (
        <dl className="mt-3 grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-4">
          <Figure
            testId="figure-today"
            label="Today"
            value={formatRand2(summary.periods.today.revenue)}
            detail={`${ordersText(summary.periods.today.orders)} · yesterday ${formatRand2(summary.periods.yesterday.revenue)} (${ordersText(summary.periods.yesterday.orders)})`}
          />
          <Figure
            testId="figure-week"
            label="This week"
            value={formatRand2(summary.periods.thisWeek.revenue)}
            detail={`${ordersText(summary.periods.thisWeek.orders)}, ${withFees(summary.periods.thisWeek.deliveryFees)} · last week ${formatRand2(summary.periods.lastWeek.revenue)} (${ordersText(summary.periods.lastWeek.orders)})`}
          />
          <Figure
            testId="figure-average"
            label="Average order this week"
            value={average(summary.periods.thisWeek.revenue, summary.periods.thisWeek.orders)}
            detail={`last week ${average(summary.periods.lastWeek.revenue, summary.periods.lastWeek.orders)}`}
          />
          <Figure
            testId="figure-outstanding"
            label="Awaiting payment"
            value={formatRand2(summary.outstanding.value)}
            detail={
              summary.outstanding.orders === 0
                ? "no orders"
                : `${ordersText(summary.outstanding.orders)} · oldest placed ${formatDateTime(summary.outstanding.oldest!)}${
                    summary.outstanding.balances > 0 ? ` · of which ${formatRand2(summary.outstanding.balancesValue)} in ${summary.outstanding.balances} booking balance${summary.outstanding.balances === 1 ? "" : "s"}` : ""
                  }`
            }
          />
        </dl>
      ) : (
        <p role="status" className="mt-3">
          Loading...
        </p>
      )}
    </section>
  );
}
