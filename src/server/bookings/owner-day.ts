import { TRPCError } from "@trpc/server";
import { messages } from "@/lib/messages";
import type { TRPCContext } from "@/server/api/trpc";
import { violatesCheck, violatesForeignKey } from "@/server/db/sql-errors";
import { deleteBlock, insertBlock, readBlocks, readCalendar, readServices } from "./calendar-queries";
import type { AddBlockInput, CalendarInput, RemoveBlockInput } from "./schemas";

type Ctx = Pick<TRPCContext, "db" | "catalogue">;
const c = messages.bookings.calendar;

/** bookings.calendar (admins): a day's or a week's bookings with their capacity used, and the services to filter by. */
export async function calendar({ ctx, input }: { ctx: Ctx; input: CalendarInput }) {
  return ctx.db.transaction(async (trx) => ({
    bookings: await readCalendar(trx, { from: input.from, days: input.days, productId: input.productId }),
    services: await readServices(trx),
  }));
}

/** bookings.blocks (admins): the blocked times ahead, each with the bookings it clashes with. */
export function blocks({ ctx }: { ctx: Ctx }) {
  return ctx.db.transaction((trx) => readBlocks(trx, new Date()));
}

/** bookings.addBlock (admins): no free time overlapping it is offered from now on; the free times' caches are dropped. */
export async function addBlock({ ctx, input }: { ctx: Ctx; input: AddBlockInput }): Promise<{ message: string }> {
  try {
    await ctx.db.transaction((trx) => insertBlock(trx, { productId: input.productId, from: input.from, to: input.to, reason: input.reason }));
  } catch (error) {
    if (violatesCheck(error, "booking_blocks_times")) throw new TRPCError({ code: "BAD_REQUEST", message: c.blockOrder, cause: error });
    if (violatesForeignKey(error, "booking_blocks_product_id_fkey")) throw new TRPCError({ code: "NOT_FOUND", message: messages.bookings.notBookable, cause: error });
    throw error;
  }
  ctx.catalogue.changed();
  return { message: c.blockAdded };
}

/** bookings.removeBlock (admins): its times are offered again. */
export async function removeBlock({ ctx, input }: { ctx: Ctx; input: RemoveBlockInput }): Promise<{ message: string }> {
  const removed = await ctx.db.transaction((trx) => deleteBlock(trx, input.id));
  if (!removed) throw new TRPCError({ code: "NOT_FOUND", message: c.blockNotFound });
  ctx.catalogue.changed();
  return { message: c.blockRemoved };
}
