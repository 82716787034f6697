import { z } from "@/lib/zod";
import { messages } from "@/lib/messages";
import { fulfilmentChoice } from "@/server/fulfilment/schemas";

const m = messages.checkout;

/** The bank-transfer reference format (spec §9): ORD-{random number below one million}. */
export const ORDER_REFERENCE = /^ORD-[0-9]{1,6}$/;

/** The fulfilment choice as a form field: JSON, absent while the shop asks none (docs/architecture.md#delivery-and-collection). */
const fulfilmentField = z
  .union([z.null(), z.string()])
  .transform((text, ctx) => {
    if (text === null || text === "") return null;
    try {
      return JSON.parse(text) as unknown;
    } catch {
      ctx.addIssue({ code: "custom", message: messages.fulfilment.required });
      return z.NEVER;
    }
  })
  .pipe(fulfilmentChoice.nullable());

/**
 * Checkout arrives as multipart form data (the proof of payment is a file): the proof, the
 * reference the customer paid with, the client's idempotency key for retries, and how and when
 * the order reaches the customer (`fulfilment`, JSON).
 */
export const placeOrderInput = z
  .instanceof(FormData)
  .transform((form) => ({
    // An empty file input sends a nameless empty file: no proof.
    proof: ((value) => (value instanceof File && value.size === 0 && value.name === "" ? null : value))(form.get("proof")),
    reference: form.get("reference"),
    idempotencyKey: form.get("idempotencyKey"),
    fulfilment: form.get("fulfilment"),
  }))
  .pipe(
    z.object({
      /** Null: no proof, which place_order() takes only when nothing is due now (bookings without a deposit). */
      proof: z.union([z.null(), z.custom<File>((value) => value instanceof File, m.proofRequired)]),
      reference: z.string().regex(ORDER_REFERENCE, m.referenceInvalid),
      idempotencyKey: z.uuid(m.failed),
      fulfilment: fulfilmentField,
    }),
  );
export type PlaceOrderInput = z.output<typeof placeOrderInput>;
