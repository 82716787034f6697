import { formatRand2 } from "@/lib/money";
import { overviewMessages as m } from "@/lib/messages";

/** A ranked list with a bar per row, scaled to the first; the amounts are text too. */
export function RankTable({ title, rows, testId }: { title: string; rows: { name: string; revenue: string; note?: string }[]; testId: string }) {
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
