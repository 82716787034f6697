import { messages } from "@/lib/messages";
import { ORDER_STATUSES, type OrderStatus } from "@/lib/statuses";

/** An order's status as a select that saves on change (the change itself is Order Management's). */
export function OrderStatusControl({
  orderId,
  status,
  disabled,
  onChange,
}: {
  orderId: string;
  status: OrderStatus;
  disabled: boolean;
  onChange: (status: OrderStatus) => void;
}) {
  return (
    <div>
      <label htmlFor={`status-${orderId}`} className="mb-1 block text-sm font-medium">
        Status
      </label>
      <select
        id={`status-${orderId}`}
        value={status}
        disabled={disabled}
        onChange={(event) => onChange(event.target.value as OrderStatus)}
        className="rounded-xl border border-line bg-white px-3 py-2"
      >
        {ORDER_STATUSES.map((value) => (
          <option key={value} value={value}>
            {messages.adminStatus[value]}
          </option>
        ))}
      </select>
    </div>
  );
}
