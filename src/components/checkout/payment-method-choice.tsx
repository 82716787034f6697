import { messages } from "@/lib/messages";
import type { PaymentMethod } from "./use-checkout";

const pm = messages.payments;

/** Pay now or bank transfer (bank transfer only while the shop's account is set up), as radio buttons. */
export function PaymentMethodChoice({
  method,
  onChange,
  bankTransfer,
  disabled,
}: {
  method: PaymentMethod;
  onChange: (method: PaymentMethod) => void;
  bankTransfer: boolean;
  disabled: boolean;
}) {
  return (
    <fieldset className="space-y-2" disabled={disabled}>
      <legend className="sr-only">How would you like to pay?</legend>
      {(
        [
          ["payfast", pm.payNowOption],
          ["bank_transfer", pm.bankTransferOption],
        ] as const
      )
        .filter(([value]) => value === "payfast" || bankTransfer)
        .map(([value, label]) => (
          <label
            key={value}
            className="flex min-h-11 cursor-pointer items-center gap-3 rounded-xl border border-line px-4 py-2 has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50"
          >
            <input type="radio" name="payment-method" value={value} checked={method === value} onChange={() => onChange(value)} className="size-4 accent-brand-700" />
            <span className="font-medium">{label}</span>
          </label>
        ))}
    </fieldset>
  );
}
