import { messages } from "@/lib/messages";
import { z } from "@/lib/zod";
import { ORDER_REFERENCE } from "@/server/checkout/schemas";
import { fulfilmentChoice } from "@/server/fulfilment/schemas";

const m = messages.payments;

/** "Pay now" at checkout: the reference the checkout reserved, the client's idempotency key, and how and when (docs/architecture.md#delivery-and-collection). */
export const payNowInput = z.object({
  reference: z.string().regex(ORDER_REFERENCE, messages.checkout.referenceInvalid),
  idempotencyKey: z.uuid(messages.checkout.failed),
  fulfilment: fulfilmentChoice.nullish(),
});
export type PayNowInput = z.output<typeof payNowInput>;

/** Paying again for one of the customer's own orders still waiting for payment. */
export const orderPaymentInput = z.object({ orderId: z.uuid(m.notPayable) });
export type OrderPaymentInput = z.output<typeof orderPaymentInput>;

/** Switching an order to bank transfer: the order and the proof (multipart, the proof is a file). */
export const attachProofInput = z
  .instanceof(FormData)
  .transform((form) => ({ orderId: form.get("orderId"), proof: form.get("proof") }))
  .pipe(
    z.object({
      orderId: z.uuid(m.notPayable),
      proof: z.custom<File>((value) => value instanceof File && (value.size > 0 || value.name !== ""), messages.checkout.proofRequired),
    }),
  );
export type AttachProofInput = z.output<typeof attachProofInput>;

/**
 * PayFast's credentials in Shop settings (admins). The key and passphrase are never sent back to
 * the browser: blank means "keep the saved one" (`keepSecrets`), so the form can show that one is
 * saved without holding it. A merchant id without a key, or a key without an id, cannot be saved.
 */
export const paymentSettingsInput = z
  .object({
    merchantId: z.string().trim().regex(/^([0-9]{1,20})?$/, m.merchantIdInvalid),
    /** Blank: keep the saved key. */
    merchantKey: z.string().trim().regex(/^[A-Za-z0-9]{0,100}$/, m.merchantKeyInvalid),
    /** Blank: keep the saved passphrase (unless `clearPassphrase`). */
    passphrase: z.string().max(100, m.passphraseTooLong),
    clearPassphrase: z.boolean(),
    sandbox: z.boolean(),
  });
export type PaymentSettingsInput = z.input<typeof paymentSettingsInput>;
export type PaymentSettingsValues = z.output<typeof paymentSettingsInput>;
