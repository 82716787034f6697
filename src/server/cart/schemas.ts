import { messages } from "@/lib/messages";
import { z } from "@/lib/zod";

/** cart.add: a product without options, or the chosen variant of one with options. */
export const addToCartInput = z.object({ productId: z.uuid("Unknown product."), variantId: z.uuid("Unknown product.").optional() });
export type AddToCartInput = z.infer<typeof addToCartInput>;

/** cart.increase, decrease and remove: one of the caller's lines (a product may have several, one per variant). */
export const lineRefInput = z.object({ lineId: z.uuid(messages.cart.lineGone) });
export type LineRefInput = z.infer<typeof lineRefInput>;
