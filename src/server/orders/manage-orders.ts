import { TRPCError } from "@trpc/server";
import { messages } from "@/lib/messages";
import type { TRPCContext } from "@/server/api/trpc";
import type { OrderStatus } from "@/server/db/schema";
import { countOrders, findOrderNotice, latestOrderReference, listOrderPage, listOrders, updateOrderStatus } from "./order-queries";
import { sqlErrorCode } from "@/server/db/sql-errors";

const m = messages.adminOrders;
type Ctx = Pick<TRPCContext, "db" | "storage" | "settings">;

/** The caller's own orders, newest first: purchase history and live order status. */
export function myOrders({ ctx }: { ctx: Ctx & { user: { id: string } } }) {
  return ctx.db.transaction((trx) => listOrders(trx, ctx.storage, { userId: ctx.user.id }));
}

/** The caller's newest order, if any: checkout links it when the cart is empty (e.g. Back after paying). */
export async function myLatestOrder({ ctx }: { ctx: Ctx & { user: { id: string } } }): Promise<{ reference: string } | null> {
  const reference = await ctx.db.transaction((trx) => latestOrderReference(trx, ctx.user.id));
  return reference ? { reference } : null;
}

/**
 * One page of every order (RLS: admins see all), newest first, by status and/or reference, e-mail
 * or name. A read only: the unpaid-order policy runs on the server's timer (unpaid-orders.ts).
 */
export function allOrders({ ctx, input }: { ctx: Ctx; input?: { status?: OrderStatus; search?: string; day?: string; cursor?: string | null } }) {
  const filter = { status: input?.status, search: input?.search || undefined, day: input?.day, cursor: input?.cursor };
  return ctx.db.transaction((trx) => listOrderPage(trx, ctx.storage, filter));
}

/** How many orders each status tab holds (and all of them), for the current search and day. */
export function orderCounts({ ctx, input }: { ctx: Ctx; input?: { search?: string; day?: string } }) {
  return ctx.db.transaction((trx) => countOrders(trx, { search: input?.search || undefined, day: input?.day }));
}

/** What the admins' notice of a new order shows (reference, customer, total). */
export async function orderNotice({ ctx, input }: { ctx: Ctx; input: { id: string } }) {
  const notice = await ctx.db.transaction((trx) => findOrderNotice(trx, input.id));
  if (!notice) throw new TRPCError({ code: "NOT_FOUND", message: m.orderGone });
  return notice;
}

/** Sets an order's status at once; the change is recorded (who, when, from, to) by a trigger. */
export async function setStatus({ ctx, input }: { ctx: Ctx; input: { id: string; status: OrderStatus } }) {
  const order = await ctx.db.transaction((trx) => updateOrderStatus(trx, input.id, input.status)).catch((error: unknown) => {
    // Reopening a cancelled order takes its counted stock again (orders_stock_on_status): refused when it is gone.
    if (sqlErrorCode(error) === "not_enough_stock") throw new TRPCError({ code: "CONFLICT", message: m.reopenOutOfStock, cause: error });
    if (sqlErrorCode(error) === "booking_cancelled") throw new TRPCError({ code: "CONFLICT", message: m.reopenBooked, cause: error });
    throw error;
  });
  if (!order) throw new TRPCError({ code: "NOT_FOUND", message: m.updateFailed });
  return { message: m.updated(order.reference, messages.adminStatus[order.status]) };
}
