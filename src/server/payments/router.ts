import { messages } from "@/lib/messages";
import { adminProcedure, createTRPCRouter, customerProcedure } from "@/server/api/trpc";
import { attachProof } from "./attach-proof";
import { getPaymentSettings, updatePaymentSettings } from "./manage-payment-settings";
import { orderPayment } from "./order-payment";
import { attachBalanceProof } from "./balance";
import { payAgain, payBalance, payNow } from "./pay-now";
import { attachProofInput, orderPaymentInput, payNowInput, paymentSettingsInput } from "./schemas";

/**
 * Paying online (docs/architecture.md#payments). The provider's notifications are a route, not a procedure:
 * src/app/api/payments/[provider]/notify.
 */
export const paymentsRouter = createTRPCRouter({
  // Limited per customer (CHECKOUT_LIMIT) in the payment's first statement, as checkout.placeOrder is.
  payNow: customerProcedure.meta({ failure: messages.checkout.failed }).input(payNowInput).mutation(payNow),
  payAgain: customerProcedure.input(orderPaymentInput).mutation(payAgain),
  attachProof: customerProcedure.meta({ failure: messages.checkout.failed }).input(attachProofInput).mutation(attachProof),
  order: customerProcedure.input(orderPaymentInput).query(orderPayment),
  /** The balance of an order with a deposit (docs/bookings.md): online under its own reference, or a bank transfer's proof. */
  payBalance: customerProcedure.input(orderPaymentInput).mutation(payBalance),
  attachBalanceProof: customerProcedure.meta({ failure: messages.checkout.failed }).input(attachProofInput).mutation(attachBalanceProof),
  settings: adminProcedure.query(getPaymentSettings),
  updateSettings: adminProcedure.meta({ failure: messages.payments.settingsSaveFailed }).input(paymentSettingsInput).mutation(updatePaymentSettings),
});
