"use client";

import { useState } from "react";
import { quoteMessages as q } from "@/lib/messages";
import type { FulfilmentChoice } from "@/server/fulfilment/schemas";
import { api } from "@/trpc/react";
import { draftFee, fulfilmentChoiceOf, initialDraft, type FulfilmentDraft } from "@/components/checkout/fulfilment-picker";

/** What quotes.accept takes besides the version and the purchase order. */
export interface AcceptChoice {
  fulfilment: FulfilmentChoice | null;
  slots: { lineId: string; startsAt: string }[];
}

/**
 * What accepting a version asks (quotes.acceptOptions): checkout's delivery or collection
 * draft, and a time per booked line; `chosen()` turns them into quotes.accept's input, or says
 * what is missing.
 */
export function useAcceptChoices(quoteId: string, enabled: boolean) {
  const options = api.quotes.acceptOptions.useQuery({ quoteId }, { enabled });
  const [draft, setDraft] = useState<FulfilmentDraft | null>(null);
  const [slots, setSlots] = useState<Record<string, string | null>>({});
  const fulfilment = options.data?.fulfilment.configured ? options.data.fulfilment : null;
  const start = fulfilment ? (draft ?? initialDraft(fulfilment)) : null;
  // A day no longer offered (the offer was read again): the soonest one, as at checkout.
  const current = start && fulfilment && !fulfilment.days.includes(start.day) ? { ...start, day: fulfilment.days[0] ?? "" } : start;
  const fee = fulfilment && current && !options.data?.deliveryQuoted ? draftFee(fulfilment, current) : 0;

  function chosen(): AcceptChoice | { error: string } {
    const bookings = options.data?.bookings ?? [];
    const missing = bookings.find((line) => !slots[line.lineId]);
    if (missing) return { error: q.slotRequired(missing.name) };
    let choice: FulfilmentChoice | null = null;
    if (current) {
      const checked = fulfilmentChoiceOf(current);
      if ("error" in checked) return checked;
      choice = checked.choice;
    }
    return { fulfilment: choice, slots: bookings.map((line) => ({ lineId: line.lineId, startsAt: slots[line.lineId] ?? "" })) };
  }

  return {
    options,
    fulfilment,
    current,
    setDraft,
    slots,
    chooseSlot: (lineId: string, startsAt: string | null) => setSlots((all) => ({ ...all, [lineId]: startsAt })),
    fee,
    chosen,
  };
}
export type AcceptChoices = ReturnType<typeof useAcceptChoices>;
