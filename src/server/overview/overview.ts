import { TRPCError } from "@trpc/server";
import { overviewMessages as m } from "@/lib/messages";
import type { TRPCContext } from "@/server/api/trpc";
import { afterUnpaidCancelled } from "@/server/orders/manage-orders";
import { readSalesRange, readSalesSummary } from "./queries";
import type { OverviewRange } from "./schemas";

type Ctx = Pick<TRPCContext, "db" | "settings">;

/**
 * Today against yesterday, this week against last, and the money outstanding, after the shop's
 * unpaid-order policy (as Order Management reads it): outstanding never counts an order the shop
 * should already have cancelled.
 */
export async function salesSummary({ ctx }: { ctx: Ctx }) {
  try {
    return await afterUnpaidCancelled(ctx, (trx) => readSalesSummary(trx, new Date()));
  } catch (error) {
    throw new TRPCError({ code: "INTERNAL_SERVER_ERROR", message: m.loadFailed, cause: error });
  }
}

/** The chosen range: revenue and orders per day, totals, top products, revenue per business line. */
export async function salesRange({ ctx, input }: { ctx: Ctx; input: OverviewRange }) {
  try {
    return await ctx.db.transaction((trx) => readSalesRange(trx, input));
  } catch (error) {
    throw new TRPCError({ code: "INTERNAL_SERVER_ERROR", message: m.loadFailed, cause: error });
  }
}
