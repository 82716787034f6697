import type { TRPCContext } from "@/server/api/trpc";
import { afterUnpaidCancelled } from "@/server/orders/manage-orders";
import { readSalesRange, readSalesSummary } from "./overview-queries";
import type { OverviewRange } from "./schemas";

type Ctx = Pick<TRPCContext, "db" | "settings">;

/**
 * Today against yesterday, this week against last, and the money outstanding, after the shop's
 * unpaid-order policy (as Order Management reads it): outstanding never counts an order the shop
 * should already have cancelled.
 */
export async function salesSummary({ ctx }: { ctx: Ctx }) {
  return afterUnpaidCancelled(ctx, (trx) => readSalesSummary(trx, new Date()));
}

/** The chosen range: revenue and orders per day, totals, top products, revenue per business line. */
export async function salesRange({ ctx, input }: { ctx: Ctx; input: OverviewRange }) {
  return ctx.db.transaction((trx) => readSalesRange(trx, input));
}
