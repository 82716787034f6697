"use client";

import { useState } from "react";
import { formatDay } from "@/lib/days";
import { closedDayInput } from "@/server/fulfilment/schemas";
import { api, type RouterOutputs } from "@/trpc/react";
import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/form-field";
import { useFulfilmentSaves, type Show } from "./use-fulfilment-saves";

type ClosedDay = RouterOutputs["fulfilment"]["settings"]["closedDays"][number];

/** Public holidays and other closed days (checkout offers none of them): each removable, and a form to add one. */
export function ClosedDays({ days, show }: { days: ClosedDay[]; show: Show }) {
  const { done, checked } = useFulfilmentSaves(show);
  const [closed, setClosed] = useState({ day: "", reason: "" });
  const addClosed = api.fulfilment.addClosedDay.useMutation({
    ...done,
    onSuccess: (result) => {
      setClosed({ day: "", reason: "" });
      done.onSuccess(result);
    },
  });
  const removeClosed = api.fulfilment.removeClosedDay.useMutation(done);

  return (
    <div className="space-y-3">
      <h3 className="text-lg font-bold">Public holidays and closed days</h3>
      <ul className="divide-y divide-line" aria-label="Closed days">
        {days.map((c) => (
          <li key={c.day} className="flex flex-wrap items-center justify-between gap-2 py-2">
            <span>
              <span className="font-medium">{formatDay(c.day)}</span> <span className="text-sm text-muted">{c.reason}</span>
            </span>
            <Button variant="outline" onClick={() => removeClosed.mutate({ day: c.day })} disabled={removeClosed.isPending} aria-label={`Open on ${formatDay(c.day)}`}>
              Remove
            </Button>
          </li>
        ))}
      </ul>
      <form
        className="grid items-end gap-3 sm:grid-cols-[1fr_2fr_auto]"
        onSubmit={(event) => {
          event.preventDefault();
          const input = checked(closedDayInput, closed);
          if (input) addClosed.mutate(input);
        }}
        noValidate
      >
        <TextField label="Date" type="date" value={closed.day} onChange={(e) => setClosed({ ...closed, day: e.target.value })} />
        <TextField label="Reason" value={closed.reason} maxLength={100} placeholder="Day of Reconciliation" onChange={(e) => setClosed({ ...closed, reason: e.target.value })} />
        <Button type="submit" disabled={addClosed.isPending}>
          Add closed day
        </Button>
      </form>
    </div>
  );
}
