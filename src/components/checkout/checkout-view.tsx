"use client";

import { messages } from "@/lib/messages";
import { InvoiceDetails } from "@/components/invoices/invoice-details";
import { WhatsAppConsent } from "@/components/profile/whatsapp-consent";
import { BankTransferPanel } from "./bank-transfer-panel";
import { FulfilmentPicker } from "./fulfilment-picker";
import { OrderSummary } from "./order-summary";
import { PayNowPanel } from "./pay-now-panel";
import { PaymentMethodChoice } from "./payment-method-choice";
import { useCheckout, type CheckoutStart } from "./use-checkout";

const m = messages.checkout;
const pm = messages.payments;

interface Props {
  /** checkout.start: the reference, and the bank account unless bank transfer is not set up. */
  start: CheckoutStart;
}

/**
 * Checkout: the order summary, delivery or collection, and a panel per way to pay: bank transfer
 * (details with the reference, and the proof upload) and Pay now when PayFast is set up. While the
 * shop's bank account is not set up (production) and there is no Pay now, only a notice and no way to order.
 */
export function CheckoutView({ start }: Props) {
  const checkout = useCheckout(start);
  return (
    <div className="grid gap-8 lg:grid-cols-2">
      <div className="space-y-8">
        <OrderSummary {...checkout} />
        {/* Order updates on WhatsApp (only while the shop sends there): ticked before placing the order, this order's updates go there. */}
        <WhatsAppConsent source="checkout" className="rounded-3xl border border-line bg-white p-6" />
      </div>

      <section aria-labelledby="payment-heading" className="space-y-6 rounded-3xl border border-line bg-white p-6">
        {checkout.fulfilment ? <FulfilmentPicker {...checkout.fulfilment} disabled={checkout.processing} /> : null}
        <h2 id="payment-heading" className="text-xl font-bold">
          {start.payNow ? "Payment" : pm.bankTransferOption}
        </h2>
        {start.payNow ? (
          <PaymentMethodChoice
            method={checkout.method}
            onChange={checkout.setMethod}
            bankTransfer={start.bank !== null}
            disabled={checkout.processing || Boolean(checkout.placedReference)}
          />
        ) : null}
        {/* A business's details for its tax invoice, whichever way it pays. */}
        {start.payNow || start.bank !== null ? <InvoiceDetails /> : null}
        {checkout.method === "payfast" ? (
          <PayNowPanel checkout={checkout} />
        ) : start.bank === null ? (
          <p role="alert" className="rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm font-medium text-danger" data-testid="bank-not-set-up">
            {m.bankTransferNotSetUp}
          </p>
        ) : (
          <BankTransferPanel bank={start.bank} demo={start.bankTransfer === "demo"} checkout={checkout} />
        )}
      </section>
    </div>
  );
}
