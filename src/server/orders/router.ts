import { adminProcedure, createTRPCRouter, signedInProcedure } from "@/server/api/trpc";
import { allOrders, myLatestOrder, myOrders, orderCounts, orderNotice, setStatus } from "./manage-orders";
import { orderByReference } from "./order-by-reference";
import { adminOrdersInput, orderByReferenceInput, orderCountsInput, orderNoticeInput, updateStatusInput } from "./schemas";

/** A customer's own orders. */
export const ordersRouter = createTRPCRouter({
  mine: signedInProcedure.query(myOrders),
  latest: signedInProcedure.query(myLatestOrder),
  /** One order's page (RLS: the caller's own; admins any). */
  byReference: signedInProcedure.input(orderByReferenceInput).query(orderByReference),
});

/** Order Management (admins only; RLS checks again). The CSV export is a route: src/app/admin/orders/export. */
export const adminOrdersRouter = createTRPCRouter({
  list: adminProcedure.input(adminOrdersInput).query(allOrders),
  counts: adminProcedure.input(orderCountsInput).query(orderCounts),
  updateStatus: adminProcedure.input(updateStatusInput).mutation(setStatus),
  /** The few fields the admins' notice of a new order shows (live events carry ids only). */
  notice: adminProcedure.input(orderNoticeInput).query(orderNotice),
});
