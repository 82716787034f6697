import { Link } from "@/components/ui/link";
import { formatDay, shopDay } from "@/lib/days";
import { messages } from "@/lib/messages";
import { ORDER_STATUSES, type OrderStatus } from "@/lib/statuses";
import type { RouterOutputs } from "@/trpc/react";
import { filterParams } from "./filter-params";

const m = messages.adminOrders;

type Counts = RouterOutputs["adminOrders"]["counts"];

interface Filters {
  status?: OrderStatus;
  search?: string;
  day?: string;
}

/** Order Management's filters, all in the URL: a tab per status (with its count), the search and the CSV export, the day. */
export function OrderFilters({ status, search, day, counts }: Filters & { counts: Counts | undefined }) {
  return (
    <>
      <StatusTabs status={status} search={search} day={day} counts={counts} />
      <div className="flex flex-wrap items-center justify-between gap-3">
        <form action="/admin/orders" method="get" role="search" className="flex w-full max-w-xl gap-2">
          {status ? <input type="hidden" name="status" value={status} /> : null}
          {day ? <input type="hidden" name="day" value={day} /> : null}
          <label htmlFor="order-search" className="sr-only">
            {m.searchLabel}
          </label>
          <input
            id="order-search"
            name="q"
            type="search"
            defaultValue={search}
            maxLength={100}
            placeholder={m.searchPlaceholder}
            className="block w-full rounded-xl border border-line bg-white px-4 py-2"
          />
          <button type="submit" className="rounded-xl bg-brand-700 px-4 text-sm font-semibold text-white">
            Search
          </button>
        </form>
        {/* A plain link: the route answers with a file to save, not a page to render. */}
        <a
          href={`/admin/orders/export${filterParams(status, search, day)}`}
          download
          className="rounded-xl border border-line bg-white px-4 py-2 text-sm font-semibold text-brand-800 hover:bg-brand-50"
        >
          {m.exportCsv}
        </a>
      </div>
      <DayFilter status={status} search={search} day={day} />
    </>
  );
}

/** A link per status and "All", the current one marked, each with its count once counted. */
function StatusTabs({ status, search, day, counts }: Filters & { counts: Counts | undefined }) {
  return (
    <nav aria-label="Filter orders by status">
      <ul className="inline-flex flex-wrap gap-1 rounded-xl border border-line bg-white p-1">
        {[undefined, ...ORDER_STATUSES].map((value) => (
          <li key={value ?? "all"}>
            <Link
              href={`/admin/orders${filterParams(value, search, day)}`}
              aria-current={value === status ? "page" : undefined}
              className={`flex items-center gap-2 rounded-lg px-3 py-1.5 text-sm font-medium ${value === status ? "bg-brand-700 text-white" : "text-ink hover:bg-brand-50"}`}
            >
              {value ? messages.adminStatus[value] : "All"}
              {/* Read out as "Complete 12"; the flex gap does the spacing on screen. */}
              {counts ? " " : null}
              {counts ? (
                <span
                  data-testid={`count-${value ?? "all"}`}
                  className={`tabular rounded-full px-2 text-xs ${value === status ? "bg-white/20 text-white" : "bg-brand-50 text-brand-800"}`}
                >
                  {counts[value ?? "all"]}
                </span>
              ) : null}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** "What do we deliver tomorrow?": the delivery or collection day, and its printable run sheet. */
function DayFilter({ status, search, day }: Filters) {
  const tomorrow = shopDay(1);
  return (
    <form action="/admin/orders" method="get" className="flex flex-wrap items-end gap-2" aria-label="Filter orders by day">
      {status ? <input type="hidden" name="status" value={status} /> : null}
      {search ? <input type="hidden" name="q" value={search} /> : null}
      <label className="text-sm font-medium">
        <span className="mb-1 block">Delivery or collection day</span>
        <input type="date" name="day" defaultValue={day} className="rounded-xl border border-line bg-white px-3 py-2" />
      </label>
      <button type="submit" className="rounded-xl bg-brand-700 px-4 py-2 text-sm font-semibold text-white">
        Show day
      </button>
      <Link href={`/admin/orders${filterParams(status, search, tomorrow)}`} aria-current={day === tomorrow ? "page" : undefined} className="rounded-xl border border-line bg-white px-4 py-2 text-sm font-semibold text-brand-800 hover:bg-brand-50">
        Tomorrow
      </Link>
      {day ? (
        <>
          <Link href={`/admin/orders${filterParams(status, search)}`} className="rounded-xl px-3 py-2 text-sm font-medium text-brand-800 underline">
            Any day
          </Link>
          <Link href={`/admin/orders/run-sheet?day=${day}`} className="rounded-xl border border-line bg-white px-4 py-2 text-sm font-semibold text-brand-800 hover:bg-brand-50">
            Run sheet for {formatDay(day)}
          </Link>
        </>
      ) : null}
    </form>
  );
}
