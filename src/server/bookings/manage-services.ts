import { TRPCError } from "@trpc/server";
import { messages } from "@/lib/messages";
import type { TRPCContext } from "@/server/api/trpc";
import { readServiceSettings, saveServiceSettings } from "./service-queries";
import type { BookingSettings, SaveBookingInput } from "./schemas";

type Ctx = Pick<TRPCContext, "db" | "catalogue">;

/** A product's booking settings for the admin's Booking panel (null: not booked by time). */
export async function serviceSettings({ ctx, input }: { ctx: Ctx; input: { id: string } }): Promise<BookingSettings | null> {
  return ctx.db.transaction((trx) => readServiceSettings(trx, input.id));
}

/** Marks a product bookable with its settings, or stops booking it by time (settings null). */
export async function setServiceSettings({ ctx, input }: { ctx: Ctx; input: SaveBookingInput }): Promise<{ message: string }> {
  const name = await ctx.db.transaction((trx) => saveServiceSettings(trx, input.productId, input.settings));
  if (name === undefined) throw new TRPCError({ code: "NOT_FOUND", message: messages.catalogue.productNotFound });
  ctx.catalogue.changed();
  return { message: input.settings ? messages.bookings.admin.saved(name) : messages.bookings.admin.stopped(name) };
}
