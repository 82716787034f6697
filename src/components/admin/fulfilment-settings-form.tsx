"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { formatDay, WEEKDAYS } from "@/lib/days";
import { formatOpeningHours, type OpeningDay } from "@/lib/opening-hours";
import { formatRand } from "@/lib/money";
import { messages, openingHoursMessages } from "@/lib/messages";
import { closedDayInput, deliveryAreaInput, fulfilmentSettingsInput, type FulfilmentSettingsInput } from "@/server/fulfilment/schemas";
import { api, type RouterOutputs } from "@/trpc/react";
import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/form-field";
import { StatusMessage } from "@/components/ui/status-message";
import { useFlashMessage } from "@/components/ui/use-flash-message";

const m = messages.fulfilment;

/**
 * Delivery and collection (docs/delivery-and-collection.md): collection on or off, the cut-off
 * for next-day orders, the opening hours per weekday (checkout offers open days only), delivery
 * areas with fees and minimums, closed days.
 * Saved in the database; checkout reads them on its next load.
 */
export function FulfilmentSettingsForm() {
  const settings = api.fulfilment.settings.useQuery();
  if (settings.isPending) return <p role="status">{messages.loading}</p>;
  if (settings.isError) return <p role="alert" className="text-danger">{messages.settings.loadFailed}</p>;
  return <FulfilmentFields saved={settings.data} />;
}

function FulfilmentFields({ saved }: { saved: RouterOutputs["fulfilment"]["settings"] }) {
  const router = useRouter();
  const utils = api.useUtils();
  const flash = useFlashMessage();
  const [values, setValues] = useState<FulfilmentSettingsInput>(saved.settings);
  const [area, setArea] = useState({ name: "", fee: "", minimumOrder: "" });
  const [closed, setClosed] = useState({ day: "", reason: "" });
  const done = {
    onSuccess: ({ message }: { message: string }) => {
      flash.show(message, "success");
      void utils.fulfilment.invalidate();
    },
    onError: (error: { message: string }) => flash.show(error.message || m.settingsSaveFailed, "error"),
  };
  const save = api.fulfilment.updateSettings.useMutation({
    ...done,
    onSuccess: (result) => {
      done.onSuccess(result);
      // The go-live checklist (the collection address) is rendered on the server.
      router.refresh();
    },
  });
  const saveArea = api.fulfilment.saveArea.useMutation({
    ...done,
    onSuccess: (result) => {
      setArea({ name: "", fee: "", minimumOrder: "" });
      done.onSuccess(result);
    },
  });
  const removeArea = api.fulfilment.removeArea.useMutation(done);
  const addClosed = api.fulfilment.addClosedDay.useMutation({
    ...done,
    onSuccess: (result) => {
      setClosed({ day: "", reason: "" });
      done.onSuccess(result);
    },
  });
  const removeClosed = api.fulfilment.removeClosedDay.useMutation(done);

  /** Checked with the procedure's own schema first, so the form says what the server would. */
  function checked<T>(schema: { safeParse: (v: unknown) => { success: true; data: T } | { success: false; error: { issues: { message: string }[] } } }, value: unknown): T | null {
    const result = schema.safeParse(value);
    if (result.success) return result.data;
    flash.show(result.error.issues[0]?.message ?? m.settingsSaveFailed, "error");
    return null;
  }

  const active = saved.areas.filter((a) => a.active);

  return (
    <section aria-labelledby="fulfilment-heading" className="space-y-8 rounded-3xl border border-line bg-white p-6" data-testid="fulfilment-settings">
      <h2 id="fulfilment-heading" className="text-xl font-bold">
        {m.settingsTitle}
      </h2>
      <p className="text-sm text-muted">Checkout asks customers for delivery or collection and a day once collection is on or there is at least one delivery area.</p>

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

      <div className="space-y-3">
        <h3 className="text-lg font-bold">Public holidays and closed days</h3>
        <ul className="divide-y divide-line" aria-label="Closed days">
          {saved.closedDays.map((c) => (
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
      <StatusMessage message={flash.message} />
    </section>
  );
}

/** Each weekday: open or closed, from and to. Customers read them worded as the line under it. */
function OpeningHoursFields({ days, onChange }: { days: OpeningDay[]; onChange: (days: OpeningDay[]) => void }) {
  const set = (weekday: number, change: Partial<OpeningDay>) => onChange(days.map((day) => (day.weekday === weekday ? { ...day, ...change } : day)));
  return (
    <fieldset id="opening-hours" data-testid="opening-hours">
      <legend className="mb-1.5 text-sm font-medium">{openingHoursMessages.legend}</legend>
      <ul className="space-y-1">
        {days.map((day) => {
          const name = WEEKDAYS[day.weekday - 1] ?? String(day.weekday);
          return (
            <li key={day.weekday} className="flex flex-wrap items-center gap-x-4 gap-y-1">
              <label className="flex min-h-11 w-44 items-center gap-2 text-sm">
                <input type="checkbox" checked={day.open} onChange={(e) => set(day.weekday, { open: e.target.checked })} className="size-4 accent-brand-700" />
                {`Open on ${name}`}
              </label>
              {day.open ? (
                <span className="flex items-center gap-2 text-sm">
                  <input type="time" aria-label={`${name} opens`} value={day.opens} onChange={(e) => set(day.weekday, { opens: e.target.value })} className="min-h-11 rounded-lg border border-line px-2" />
                  <span aria-hidden="true">to</span>
                  <input type="time" aria-label={`${name} closes`} value={day.closes} onChange={(e) => set(day.weekday, { closes: e.target.value })} className="min-h-11 rounded-lg border border-line px-2" />
                </span>
              ) : (
                <span className="text-sm text-muted">Closed</span>
              )}
            </li>
          );
        })}
      </ul>
      <p className="mt-2 text-sm text-muted" data-testid="opening-hours-text">
        Customers see: {formatOpeningHours(days)}
      </p>
    </fieldset>
  );
}
