import type { TRPCContext } from "@/server/api/trpc";
import { readQuoteFigures, readSalesRange, readSalesSummary } from "./overview-queries";
import type { OverviewRange } from "./schemas";

type Ctx = Pick<TRPCContext, "db">;

/**
 * Today against yesterday, this week against last, and the money outstanding. Outstanding counts
 * the orders waiting for payment; those past the shop's limit go at the unpaid-order timer's next
 * run (at most UNPAID_ORDER_CHECK_MS later), not in a read.
 */
export function salesSummary({ ctx }: { ctx: Ctx }) {
  return ctx.db.transaction((trx) => readSalesSummary(trx, new Date()));
}

/** The chosen range: revenue and orders per day, totals, top products, revenue per business line. */
export function salesRange({ ctx, input }: { ctx: Ctx; input: OverviewRange }) {
  return ctx.db.transaction((trx) => readSalesRange(trx, input));
}

/** Quotes in the chosen range: how many were sent and accepted, and their value (docs/quotes.md). */
export function quoteFigures({ ctx, input }: { ctx: Ctx; input: OverviewRange }) {
  return ctx.db.transaction((trx) => readQuoteFigures(trx, input));
}
