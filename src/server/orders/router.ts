import { adminProcedure, createTRPCRouter, signedInProcedure } from "@/server/api/trpc";
import { allOrders, myOrders, setStatus } from "./manage-orders";
import { adminOrdersInput, updateStatusInput } from "./schemas";

/** A customer's own orders. */
export const ordersRouter = createTRPCRouter({
  mine: signedInProcedure.query(myOrders),
});

/** Order Management (admins only; RLS checks again). */
export const adminOrdersRouter = createTRPCRouter({
  list: adminProcedure.input(adminOrdersInput).query(allOrders),
  updateStatus: adminProcedure.input(updateStatusInput).mutation(setStatus),
});
