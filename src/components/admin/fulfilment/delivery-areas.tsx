"use client";

import { useState } from "react";
import { formatRand } from "@/lib/money";
import { messages } from "@/lib/messages";
import { deliveryAreaInput } from "@/server/fulfilment/schemas";
import { api, type RouterOutputs } from "@/trpc/react";
import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/form-field";
import { useFulfilmentSaves, type Show } from "./use-fulfilment-saves";

const m = messages.fulfilment;

type Area = RouterOutputs["fulfilment"]["settings"]["areas"][number];

/** The delivery areas with their fees and minimums: each removable, and a form to add one. */
export function DeliveryAreas({ areas, show }: { areas: Area[]; show: Show }) {
  const { done, checked } = useFulfilmentSaves(show);
  const [area, setArea] = useState({ name: "", fee: "", minimumOrder: "" });
  const saveArea = api.fulfilment.saveArea.useMutation({
    ...done,
    onSuccess: (result) => {
      setArea({ name: "", fee: "", minimumOrder: "" });
      done.onSuccess(result);
    },
  });
  const removeArea = api.fulfilment.removeArea.useMutation(done);
  const active = areas.filter((a) => a.active);

  return (
    <div className="space-y-3">
      <h3 className="text-lg font-bold">Delivery areas</h3>
      {active.length === 0 ? <p className="text-sm text-muted">No delivery areas: checkout offers no delivery.</p> : null}
      <ul className="divide-y divide-line" aria-label="Delivery areas">
        {active.map((a) => (
          <li key={a.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
            <span>
              <span className="font-medium">{a.name}</span> <span className="tabular text-sm text-muted">{formatRand(a.fee)}{a.minimumOrder ? `, ${m.minimumNote(formatRand(a.minimumOrder))}` : ""}</span>
            </span>
            <Button variant="outline" onClick={() => removeArea.mutate({ id: a.id })} disabled={removeArea.isPending} aria-label={`Remove ${a.name}`}>
              Remove
            </Button>
          </li>
        ))}
      </ul>
      <form
        className="grid items-end gap-3 sm:grid-cols-[2fr_1fr_1fr_auto]"
        onSubmit={(event) => {
          event.preventDefault();
          const input = checked(deliveryAreaInput, area);
          if (input) saveArea.mutate(input);
        }}
        noValidate
      >
        <TextField label="Suburb or postal code" value={area.name} maxLength={100} onChange={(e) => setArea({ ...area, name: e.target.value })} />
        <TextField label="Fee (R)" inputMode="decimal" value={area.fee} onChange={(e) => setArea({ ...area, fee: e.target.value })} />
        <TextField label="Minimum order (R, optional)" inputMode="decimal" value={area.minimumOrder} onChange={(e) => setArea({ ...area, minimumOrder: e.target.value })} />
        <Button type="submit" disabled={saveArea.isPending}>
          Add area
        </Button>
      </form>
    </div>
  );
}
