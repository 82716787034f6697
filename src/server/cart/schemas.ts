import { messages } from "@/lib/messages";
import { z } from "@/lib/zod";

/**
 * A line's personalisation as the product page sends it: {"<field id>": "<text or file path>"};
 * texts are trimmed and empty fields left out (the database checks the rest against the fields).
 */
export const personalisationValues = z
  .record(z.uuid(messages.cart.personalisationInvalid), z.string().max(500, messages.cart.personalisationInvalid))
  .transform((values) => Object.fromEntries(Object.entries(values).map(([field, value]) => [field, value.trim()] as const).filter(([, value]) => value !== "")));

/** cart.add: a product without options, or the chosen variant of one with options, with the line's personalisation if any. */
export const addToCartInput = z.object({
  productId: z.uuid("Unknown product."),
  variantId: z.uuid("Unknown product.").optional(),
  personalisation: personalisationValues.optional(),
});
export type AddToCartInput = z.infer<typeof addToCartInput>;

/** cart.increase, decrease and remove: one of the caller's lines (a product may have several, one per variant). */
export const lineRefInput = z.object({ lineId: z.uuid(messages.cart.lineGone) });
export type LineRefInput = z.infer<typeof lineRefInput>;

/** cart.uploadFile: a file (a logo) for a line's personalisation, before the line is added. */
export const personalisationFileInput = z
  .instanceof(FormData)
  .transform((form) => ({ file: form.get("file") }))
  .pipe(z.object({ file: z.custom<File>((value) => value instanceof File && value.size > 0, messages.upload.not_a_logo) }));
