import { messages, orderPageMessages } from "@/lib/messages";
import { ORDER_STATUSES } from "@/lib/statuses";
import { z } from "@/lib/zod";
import { ORDER_REFERENCE } from "@/server/checkout/schemas";

/** @deprecated the same as OrderStatus (src/lib/statuses.ts); kept while Order Management is being split. */
export type { OrderStatus as OrderStatus } from "@/lib/statuses";

/** Orders per page of Order Management. */
export const ORDERS_PAGE_SIZE = 50;

const search = z.string().trim().max(100).optional();
/** A delivery or collection day, YYYY-MM-DD (the page's `?day=`). */
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "Please choose a day.").optional();

/** Order Management's filter, as the page's URL (`status`, `q`, `day`) and the CSV export carry it. */
export const orderFilterInput = z.object({ status: z.enum(ORDER_STATUSES).optional(), search, day });
export type OrderFilterInput = z.infer<typeof orderFilterInput>;

/**
 * One page of Order Management. `cursor` is the id of the last order of the page before (none,
 * or null, for the first page): tRPC's useInfiniteQuery passes it.
 */
export const adminOrdersInput = orderFilterInput
  .extend({ cursor: z.uuid(messages.adminOrders.unknownPage).nullish() })
  .optional();

/** The per-status counts of Order Management's tabs, for the current search. */
export const orderCountsInput = z.object({ search, day }).optional();

export const updateStatusInput = z.object({ id: z.uuid("Unknown order."), status: z.enum(ORDER_STATUSES) });

/** The order an admin's live notice names (the live event carries its id only). */
export const orderNoticeInput = z.object({ id: z.uuid("Unknown order.") });

/** One order's messages to its customer (Order Management). */
export const orderMessagesInput = orderNoticeInput;
export type OrderMessagesInput = z.infer<typeof orderMessagesInput>;

/** One order by its reference, as its page's URL carries it (/profile/orders/ORD-123; any case). */
export const orderByReferenceInput = z.object({
  reference: z.string().trim().toUpperCase().regex(ORDER_REFERENCE, orderPageMessages.invalidReference),
});
export type OrderByReferenceInput = z.output<typeof orderByReferenceInput>;
