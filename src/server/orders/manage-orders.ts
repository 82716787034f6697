import { TRPCError } from "@trpc/server";
import { messages } from "@/lib/messages";
import type { TRPCContext } from "@/server/api/trpc";
import type { Tx } from "@/server/db/as-caller";
import type { OrderStatus } from "@/server/db/schema";
import { cancelUnpaidOrders, countOrders, findOrderNotice, latestOrderReference, listOrderPage, listOrders, updateOrderStatus } from "./order-queries";

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
 * Runs an admin's read of the orders after the shop's unpaid-order policy, in the admin's own
 * transaction: what the admin sees is never an order the shop should already have cancelled,
 * even if the server's timer has not run yet. cancel_unpaid_orders() checks the caller is an admin.
 */
export async function afterUnpaidCancelled<T>(ctx: Pick<Ctx, "db" | "settings">, read: (trx: Tx) => Promise<T>): Promise<T> {
  // Read before the transaction: on PGlite a second read inside it would wait for it forever.
  const { unpaidOrderDays } = await ctx.settings.published();
  return ctx.db.transaction(async (trx) => {
    await cancelUnpaidOrders(trx, unpaidOrderDays);
    return read(trx);
  });
}

/** One page of every order (RLS: admins see all), newest first, by status and/or reference, e-mail or name. */
export async function allOrders({ ctx, input }: { ctx: Ctx; input?: { status?: OrderStatus; search?: string; day?: string; cursor?: string | null } }) {
  const filter = { status: input?.status, search: input?.search || undefined, day: input?.day, cursor: input?.cursor };
  // The policy runs once per visit of the list (its first page), not again for each further page.
  return await (filter.cursor
    ? ctx.db.transaction((trx) => listOrderPage(trx, ctx.storage, filter))
    : afterUnpaidCancelled(ctx, (trx) => listOrderPage(trx, ctx.storage, filter)));
}

/** How many orders each status tab holds (and all of them), for the current search and day. */
export async function orderCounts({ ctx, input }: { ctx: Ctx; input?: { search?: string; day?: string } }) {
  return afterUnpaidCancelled(ctx, (trx) => countOrders(trx, { search: input?.search || undefined, day: input?.day }));
}

/** What the admins' notice of a new order shows (reference, customer, total). */
export async function orderNotice({ ctx, input }: { ctx: Ctx; input: { id: string } }) {
  const notice = await ctx.db.transaction((trx) => findOrderNotice(trx, input.id));
  if (!notice) throw new TRPCError({ code: "NOT_FOUND", message: m.orderGone });
  return notice;
}

/** Sets an order's status at once; the change is recorded (who, when, from, to) by a trigger. */
export async function setStatus({ ctx, input }: { ctx: Ctx; input: { id: string; status: OrderStatus } }) {
  const order = await ctx.db.transaction((trx) => updateOrderStatus(trx, input.id, input.status));
  if (!order) throw new TRPCError({ code: "NOT_FOUND", message: m.updateFailed });
  return { message: m.updated(order.reference, messages.adminStatus[order.status]) };
}
