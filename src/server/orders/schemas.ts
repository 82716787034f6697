import { z } from "@/lib/zod";

/** The order_status enum (ARCHITECTURE §8), in the admin's filter order. */
export const ORDER_STATUSES = ["pending_payment", "pending_delivery", "complete", "cancelled"] as const;
export type OrderStatusValue = (typeof ORDER_STATUSES)[number];

export const adminOrdersInput = z
  .object({
    status: z.enum(ORDER_STATUSES).optional(),
    search: z.string().trim().max(100).optional(),
  })
  .optional();

export const updateStatusInput = z.object({ id: z.uuid("Unknown order."), status: z.enum(ORDER_STATUSES) });
