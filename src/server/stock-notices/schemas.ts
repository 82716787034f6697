import { z } from "@/lib/zod";

/** A customer's back-in-stock request: which sold-out variant. */
export const variantIdInput = z.object({ variantId: z.uuid() });

/** Which of a product page's variants the caller has asked about (a product has at most 100). */
export const requestedInput = z.object({ variantIds: z.array(z.uuid()).max(100) });

/** Admins: the low-stock crossing a live notice names (the live event carries its id only). */
export const lowStockNoticeInput = z.object({ id: z.uuid() });
