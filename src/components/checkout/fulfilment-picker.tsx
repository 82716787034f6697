"use client";

import { formatShortDay } from "@/lib/days";
import { formatRand } from "@/lib/money";
import { messages } from "@/lib/messages";
import { fulfilmentChoice, type FulfilmentChoice } from "@/server/fulfilment/schemas";
import type { RouterOutputs } from "@/trpc/react";
import { TextAreaField } from "@/components/ui/form-field";

const m = messages.fulfilment;

type Options = RouterOutputs["fulfilment"]["options"];

/** What the customer has chosen so far (checkout turns it into place_order's choice). */
export interface FulfilmentDraft {
  method: "delivery" | "collection" | null;
  areaId: string;
  address: string;
  keepAddress: boolean;
  day: string;
}

/** The first draft: the only method offered, the kept address, the soonest day. */
export function initialDraft(options: Options): FulfilmentDraft {
  const only = options.collection && options.areas.length === 0 ? "collection" : !options.collection && options.areas.length > 0 ? "delivery" : null;
  const keptArea = options.kept?.areaId && options.areas.some((a) => a.id === options.kept?.areaId) ? options.kept.areaId : "";
  return { method: only, areaId: keptArea, address: options.kept?.address ?? "", keepAddress: false, day: options.days[0] ?? "" };
}

/** The fee the draft adds to the total (0 for collection or before an area is chosen). */
export function draftFee(options: Options, draft: FulfilmentDraft): number {
  if (draft.method !== "delivery") return 0;
  return Number(options.areas.find((a) => a.id === draft.areaId)?.fee ?? 0);
}

/**
 * The draft as place_order's choice (accept_quote's too), checked with the procedures' own
 * schema, or the message that says what is missing.
 */
export function fulfilmentChoiceOf(draft: FulfilmentDraft): { choice: FulfilmentChoice } | { error: string } {
  if (!draft.method) return { error: m.required };
  const checked = fulfilmentChoice.safeParse(
    draft.method === "delivery"
      ? { method: "delivery", day: draft.day, areaId: draft.areaId, address: draft.address, keepAddress: draft.keepAddress }
      : { method: "collection", day: draft.day },
  );
  return checked.success ? { choice: checked.data } : { error: checked.error.issues[0]?.message ?? m.required };
}

const field = "block w-full rounded-xl border border-line bg-white px-3 py-2.5 text-base focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-200";

/**
 * Delivery or collection, the area and address, and the day (docs/architecture.md#delivery-and-collection): only what the
 * shop has switched on, only the days SQL offers for this cart.
 */
export function FulfilmentPicker({ options, draft, onChange, disabled }: { options: Options; draft: FulfilmentDraft; onChange: (draft: FulfilmentDraft) => void; disabled: boolean }) {
  const set = (patch: Partial<FulfilmentDraft>) => onChange({ ...draft, ...patch });
  const methods = [
    ...(options.areas.length > 0 ? [["delivery", m.deliveryOption] as const] : []),
    ...(options.collection ? [["collection", m.collectionOption] as const] : []),
  ];
  return (
    <fieldset className="space-y-4" disabled={disabled} data-testid="fulfilment">
      <legend className="text-lg font-bold">{m.heading}</legend>
      {methods.length > 1 ? (
        <div className="grid gap-2 sm:grid-cols-2" role="radiogroup" aria-label={m.heading}>
          {methods.map(([value, label]) => (
            <label
              key={value}
              className="flex min-h-11 cursor-pointer items-center gap-3 rounded-xl border border-line px-4 py-2 has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50"
            >
              <input type="radio" name="fulfilment-method" value={value} checked={draft.method === value} onChange={() => set({ method: value })} className="size-4 accent-brand-700" />
              <span className="font-medium">{label}</span>
            </label>
          ))}
        </div>
      ) : (
        <p className="font-medium">{methods[0]?.[1]}</p>
      )}

      {draft.method === "delivery" ? (
        <div className="space-y-3">
          <div>
            <label htmlFor="delivery-area" className="mb-1.5 block text-sm font-medium">
              {m.area}
            </label>
            <select id="delivery-area" className={field} value={draft.areaId} onChange={(e) => set({ areaId: e.target.value })}>
              <option value="">{m.areaPlaceholder}</option>
              {options.areas.map((area) => (
                <option key={area.id} value={area.id}>
                  {area.name} ({formatRand(area.fee)}
                  {area.minimumOrder ? `, ${m.minimumNote(formatRand(area.minimumOrder))}` : ""})
                </option>
              ))}
            </select>
          </div>
          <TextAreaField label={m.address} id="delivery-address" rows={2} maxLength={300} autoComplete="street-address" fieldClassName={field} value={draft.address} onChange={(e) => set({ address: e.target.value })} />
          <label className="flex min-h-11 items-center gap-3 text-sm">
            <input type="checkbox" checked={draft.keepAddress} onChange={(e) => set({ keepAddress: e.target.checked })} className="size-4 accent-brand-700" />
            {m.keepAddress}
          </label>
        </div>
      ) : draft.method === "collection" && options.collection ? (
        <p className="rounded-xl bg-brand-50 px-4 py-3 text-sm">
          {m.collectFrom(options.collection.address)}
          {options.collection.hours ? <span className="block text-muted">{options.collection.hours}</span> : null}
        </p>
      ) : null}

      {draft.method ? (
        options.days.length === 0 ? (
          <p role="alert" className="text-sm text-danger">
            {m.noDays}
          </p>
        ) : (
          <div>
            <label htmlFor="fulfilment-day" className="mb-1.5 block text-sm font-medium">
              {m.day}
            </label>
            <select id="fulfilment-day" className={field} value={draft.day} onChange={(e) => set({ day: e.target.value })}>
              {options.days.map((day) => (
                <option key={day} value={day}>
                  {formatShortDay(day)}
                </option>
              ))}
            </select>
          </div>
        )
      ) : null}
    </fieldset>
  );
}
