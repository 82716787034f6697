"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { fulfilmentSettingsInput, type FulfilmentSettingsInput } from "@/server/fulfilment/schemas";
import { api } from "@/trpc/react";
import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/form-field";
import { OpeningHoursFields } from "./opening-hours-fields";
import { useFulfilmentSaves, type Show } from "./use-fulfilment-saves";

/** Collection on or off, the collection address, the cut-off for next-day orders and the opening hours, saved together. */
export function CollectionAndHoursForm({ saved, show }: { saved: FulfilmentSettingsInput; show: Show }) {
  const router = useRouter();
  const { done, checked } = useFulfilmentSaves(show);
  const [values, setValues] = useState<FulfilmentSettingsInput>(saved);
  const save = api.fulfilment.updateSettings.useMutation({
    ...done,
    onSuccess: (result) => {
      done.onSuccess(result);
      // The go-live checklist (the collection address) is rendered on the server.
      router.refresh();
    },
  });

  return (
    <form
      className="space-y-4"
      onSubmit={(event) => {
        event.preventDefault();
        const input = checked(fulfilmentSettingsInput, values);
        if (input) save.mutate(input);
      }}
      noValidate
    >
      <label className="flex min-h-11 items-center gap-3 font-medium">
        <input type="checkbox" checked={values.collectionEnabled} onChange={(e) => setValues({ ...values, collectionEnabled: e.target.checked })} className="size-4 accent-brand-700" />
        Customers can collect their orders
      </label>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField id="collection-address" label="Collection address" value={values.collectionAddress} maxLength={300} onChange={(e) => setValues({ ...values, collectionAddress: e.target.value })} />
        <TextField label="Cut-off for next-day orders (South African time)" type="time" value={values.cutoffTime} onChange={(e) => setValues({ ...values, cutoffTime: e.target.value })} />
      </div>
      <OpeningHoursFields days={values.openingHours} onChange={(openingHours) => setValues({ ...values, openingHours })} />
      <Button type="submit" disabled={save.isPending}>
        {save.isPending ? "Saving..." : "Save delivery and collection"}
      </Button>
    </form>
  );
}
