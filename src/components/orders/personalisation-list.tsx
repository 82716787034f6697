/** A line's personalisation (cart, order page, Order Management, run sheet): each field's text, or its file as a link. */
export function PersonalisationList({ entries }: { entries: { label: string; kind: "text" | "file"; value: string; url: string | null }[] }) {
  if (entries.length === 0) return null;
  return (
    <dl className="text-sm text-muted" data-testid="personalisation">
      {entries.map((entry) => (
        <div key={entry.label} className="flex flex-wrap gap-x-1">
          <dt className="font-medium text-ink">{entry.label}:</dt>
          <dd className="[overflow-wrap:anywhere]">
            {entry.url ? (
              <a href={entry.url} target="_blank" rel="noopener" className="font-medium text-brand-700 underline">
                {entry.value}
              </a>
            ) : (
              entry.value
            )}
          </dd>
        </div>
      ))}
    </dl>
  );
}
