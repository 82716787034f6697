import { formatDateTime } from "@/lib/days";
import { messages } from "@/lib/messages";
import type { AdminOrder } from "./order-card";

const m = messages.adminOrders;

/** An order's status changes, oldest first, folded away; shown once there has been more than the first. */
export function OrderStatusHistory({ history }: { history: AdminOrder["history"] }) {
  if (history.length <= 1) return null;
  return (
    <details className="text-sm">
      <summary className="cursor-pointer text-muted">Status history</summary>
      <ol className="mt-2 space-y-1">
        {history.map((event, index) => (
          <li key={index}>
            {formatDateTime(event.at)}: {event.from ? `${messages.adminStatus[event.from]} → ` : ""}
            {messages.adminStatus[event.to]} {event.reason ? (messages.payments.isPaymentReason(event.reason) ? `: ${event.reason}` : m.byShop(event.reason)) : event.by ? `by ${event.by}` : ""}
          </li>
        ))}
      </ol>
    </details>
  );
}
