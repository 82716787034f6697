import type { TRPCContext } from "@/server/api/trpc";
import { runSheetOrders, type RunSheetOrder } from "./fulfilment-queries";

/** fulfilment.runSheet: a day's deliveries and collections, for the printable page (admins). */
export async function runSheet({ ctx, input }: { ctx: Pick<TRPCContext, "db">; input: { day: string } }): Promise<{ day: string; orders: RunSheetOrder[] }> {
  return { day: input.day, orders: await ctx.db.transaction((trx) => runSheetOrders(trx, input.day)) };
}
