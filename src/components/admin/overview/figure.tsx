/** One figure of the overview: what it is, the amount, and a line that puts it in context. */
export function Figure({ label, value, detail, testId }: { label: string; value: string; detail: string; testId: string }) {
  return (
    <div className="rounded-2xl border border-line bg-white p-4" data-testid={testId}>
      <dt className="text-sm font-medium text-muted">{label}</dt>
      <dd className="tabular mt-1 text-2xl font-bold text-ink">{value}</dd>
      <dd className="mt-1 text-sm text-muted">{detail}</dd>
    </div>
  );
}
