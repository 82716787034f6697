"use client";

import { BOOKING_DAYS_SHOWN } from "@/lib/constants";
import { formatRand } from "@/lib/money";
import { messages, quoteMessages as q } from "@/lib/messages";
import { api } from "@/trpc/react";
import { toSlotChoices } from "@/components/bookings/slot-choices";
import { SlotChooser } from "@/components/bookings/slot-chooser";
import { depositOf } from "@/components/checkout/deposit";
import { FulfilmentPicker } from "@/components/checkout/fulfilment-picker";
import { DepositLines } from "@/components/checkout/order-summary";
import type { AcceptChoices } from "./use-accept-choices";

/**
 * What accepting asks before the order is placed (docs/quotes.md "Acceptance"): delivery or
 * collection with checkout's own picker, the area's fee and the total with it, and a free time
 * for each line of a bookable service (the product page's chooser).
 */
export function QuoteAcceptChoices({ choices, total, disabled }: { choices: AcceptChoices; total: number; disabled: boolean }) {
  const { options, fulfilment, current } = choices;
  if (options.isPending) return <p role="status">{messages.loading}</p>;
  if (!options.data) return null;
  const deposit = depositOf(options.data.deposit ?? undefined, choices.fee);
  return (
    <div className="space-y-6">
      {fulfilment && current ? <FulfilmentPicker options={fulfilment} draft={current} onChange={choices.setDraft} disabled={disabled} /> : null}
      {fulfilment && options.data.deliveryQuoted ? <p className="text-sm text-muted">{q.deliveryQuoted}</p> : null}
      {choices.fee > 0 ? (
        <dl className="tabular space-y-1 text-sm">
          <div className="flex justify-between gap-4" data-testid="quote-delivery-fee">
            <dt>{messages.fulfilment.deliveryFee}</dt>
            <dd>{formatRand(choices.fee)}</dd>
          </div>
          <div className="flex justify-between gap-4 font-bold" data-testid="quote-total-with-delivery">
            <dt>{q.totalWithDelivery}</dt>
            <dd>{formatRand(total + choices.fee)}</dd>
          </div>
        </dl>
      ) : null}
      {deposit ? <DepositLines deposit={deposit} /> : null}
      {options.data.bookings.map((line) => (
        <LineTime key={line.lineId} productId={line.productId} name={line.name} chosen={choices.slots[line.lineId] ?? null} onChoose={(startsAt) => choices.chooseSlot(line.lineId, startsAt)} disabled={disabled} />
      ))}
    </div>
  );
}

/** One booked line's free times (bookings.freeSlots, as the product page reads them). */
function LineTime({ productId, name, chosen, onChoose, disabled }: { productId: string; name: string; chosen: string | null; onChoose: (startsAt: string | null) => void; disabled: boolean }) {
  const slots = api.bookings.freeSlots.useQuery({ productId, days: BOOKING_DAYS_SHOWN });
  return (
    <div data-testid="quote-line-time">
      {slots.isPending ? <p role="status">{messages.loading}</p> : <SlotChooser slots={toSlotChoices(slots.data ?? [])} chosen={chosen} onChoose={onChoose} legend={q.chooseTimeFor(name)} disabled={disabled} />}
    </div>
  );
}
