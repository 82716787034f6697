import { messages } from "@/lib/messages";
import { adminProcedure, createTRPCRouter, signedInProcedure } from "@/server/api/trpc";
import { allOrders, myLatestOrder, myOrders, orderCounts, orderNotice, setStatus } from "./manage-orders";
import { markBalancePaid } from "@/server/payments/balance";
import { orderPaymentInput } from "@/server/payments/schemas";
import { orderByReference } from "./order-by-reference";
import { adminOrdersInput, orderByReferenceInput, orderCountsInput, orderNoticeInput, updateStatusInput } from "./schemas";

/** A customer's own orders. */
export const ordersRouter = createTRPCRouter({
  mine: signedInProcedure.query(myOrders),
  latest: signedInProcedure.query(myLatestOrder),
  /** One order's page (RLS: the caller's own; admins any). */
  byReference: signedInProcedure.meta({ failure: messages.adminOrders.loadFailed }).input(orderByReferenceInput).query(orderByReference),
});

/** Order Management (admins only; RLS checks again). The CSV export is a route: src/app/admin/orders/export. */
export const adminOrdersRouter = createTRPCRouter({
  list: adminProcedure.meta({ failure: messages.adminOrders.loadFailed }).input(adminOrdersInput).query(allOrders),
  counts: adminProcedure.meta({ failure: messages.adminOrders.loadFailed }).input(orderCountsInput).query(orderCounts),
  updateStatus: adminProcedure.meta({ failure: messages.adminOrders.updateFailed }).input(updateStatusInput).mutation(setStatus),
  /** An order's balance after its deposit arrived (docs/bookings.md): its own invoice, and the customer's mail. */
  markBalancePaid: adminProcedure.meta({ failure: messages.bookings.balanceMarkFailed }).input(orderPaymentInput).mutation(markBalancePaid),
  /** The few fields the admins' notice of a new order shows (live events carry ids only). */
  notice: adminProcedure.meta({ failure: messages.adminOrders.loadFailed }).input(orderNoticeInput).query(orderNotice),
});
