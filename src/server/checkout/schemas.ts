import { z } from "@/lib/zod";
import { messages } from "@/lib/messages";

const m = messages.checkout;

/** The bank-transfer reference format (spec §9): ORD-{random number below one million}. */
export const ORDER_REFERENCE = /^ORD-[0-9]{1,6}$/;

/**
 * Checkout arrives as multipart form data (the proof of payment is a file): the proof, the
 * reference the customer paid with, and the client's idempotency key for retries.
 */
export const placeOrderInput = z
  .instanceof(FormData)
  .transform((form) => ({
    proof: form.get("proof"),
    reference: form.get("reference"),
    idempotencyKey: form.get("idempotencyKey"),
  }))
  .pipe(
    z.object({
      proof: z.custom<File>((value) => value instanceof File && (value.size > 0 || value.name !== ""), m.proofRequired),
      reference: z.string().regex(ORDER_REFERENCE, m.referenceInvalid),
      idempotencyKey: z.uuid(m.failed),
    }),
  );
export type PlaceOrderInput = z.output<typeof placeOrderInput>;
