import { formatDay } from "@/lib/days";
import { formatRand } from "@/lib/money";
import { messages } from "@/lib/messages";
import type { FulfilmentMethod } from "@/lib/statuses";

const m = messages.fulfilment;

/** An order's method, day and address (docs/architecture.md#delivery-and-collection), as purchase history and Order Management show it. */
export function FulfilmentSummary({
  fulfilment,
}: {
  fulfilment: { method: FulfilmentMethod; day: string; address: string | null; area: string | null; fee: number } | null;
}) {
  if (!fulfilment) return null;
  return (
    <p className="text-sm" data-testid="order-fulfilment">
      <span className="font-semibold">{fulfilment.method === "delivery" ? m.deliveredOn(formatDay(fulfilment.day)) : m.collectedOn(formatDay(fulfilment.day))}</span>
      {fulfilment.method === "delivery" ? (
        <span className="block text-muted">
          {[fulfilment.address, fulfilment.area].filter(Boolean).join(", ")} · {m.deliveryFee} {formatRand(fulfilment.fee)}
        </span>
      ) : null}
    </p>
  );
}
