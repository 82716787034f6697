import type { TRPCContext } from "@/server/api/trpc";
import { showPersonalisation, type PersonalisationShown } from "@/server/cart/cart-queries";
import { runSheetOrders, type RunSheetOrder } from "./fulfilment-queries";

type RunSheetLine = Omit<RunSheetOrder["items"][number], "personalisation"> & { personalisation: PersonalisationShown[] };

/** fulfilment.runSheet: a day's deliveries and collections, for the printable page (admins), with each line's personalisation (a logo's link). */
export async function runSheet({
  ctx,
  input,
}: {
  ctx: Pick<TRPCContext, "db" | "storage">;
  input: { day: string };
}): Promise<{ day: string; orders: (Omit<RunSheetOrder, "items"> & { items: RunSheetLine[] })[] }> {
  const orders = await ctx.db.transaction((trx) => runSheetOrders(trx, input.day));
  return {
    day: input.day,
    orders: await Promise.all(
      orders.map(async (order) => ({
        ...order,
        items: await Promise.all(order.items.map(async (item) => ({ ...item, personalisation: await showPersonalisation(ctx.storage, item.personalisation) }))),
      })),
    ),
  };
}
