"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { overviewMessages as m } from "@/lib/messages";
import { addDays } from "@/lib/days";
import { overviewRangeInput } from "@/server/overview/schemas";
import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/form-field";

/** The range's two days, or the last 7 or 30 days to `to`: checked with the procedure's schema, then put in the URL. */
export function RangeForm({ from, to }: { from: string; to: string }) {
  const router = useRouter();
  const [draft, setDraft] = useState({ from, to });
  const [error, setError] = useState<string | null>(null);

  function show(next: { from: string; to: string }) {
    const parsed = overviewRangeInput.safeParse(next);
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? m.rangeInvalid);
    setError(null);
    setDraft(parsed.data);
    router.replace(`/admin/overview?from=${parsed.data.from}&to=${parsed.data.to}`, { scroll: false });
  }

  return (
    <>
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
    </>
  );
}
