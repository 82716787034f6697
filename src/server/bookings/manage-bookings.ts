import { TRPCError } from "@trpc/server";
import { shopDay, formatDateTime } from "@/lib/days";
import { messages } from "@/lib/messages";
import type { TRPCContext } from "@/server/api/trpc";
import { sqlErrorCode, violatesForeignKey } from "@/server/db/sql-errors";
import { cancelBookingRow, holdSlot, moveBookingTo, readFreeSlots, type FreeSlot } from "./bookings-queries";
import type { AddBookingInput, CancelBookingInput, FreeSlotsInput, MoveBookingInput } from "./schemas";

type Ctx = Pick<TRPCContext, "db">;

/** A service's free times (anyone may look: they say when, never who). */
export function freeSlots({ ctx, input }: { ctx: Ctx; input: FreeSlotsInput }): Promise<FreeSlot[]> {
  return ctx.db.transaction((trx) => readFreeSlots(trx, input.productId, input.from ?? shopDay(), input.days));
}

/** Puts a slot of a bookable service in the caller's cart, held for BOOKING_HOLD_MINUTES. */
export async function addBooking({ ctx, input }: { ctx: Ctx; input: AddBookingInput }): Promise<{ message: string; holdExpiresAt: Date }> {
  try {
    return await ctx.db.transaction(async (trx) => {
      const line = await holdSlot(trx, input.productId, input.variantId, input.startsAt);
      if (!line) throw new TRPCError({ code: "NOT_FOUND", message: messages.catalogue.productNotFound });
      return { message: messages.bookings.held(line.name, formatDateTime(input.startsAt)), holdExpiresAt: line.holdExpiresAt };
    });
  } catch (error) {
    const code = sqlErrorCode(error);
    if (code === "product_unavailable") throw new TRPCError({ code: "BAD_REQUEST", message: messages.cart.unavailable, cause: error });
    if (code === "not_bookable") throw new TRPCError({ code: "BAD_REQUEST", message: messages.bookings.notBookable, cause: error });
    if (code === "slot_taken") throw new TRPCError({ code: "CONFLICT", message: messages.bookings.slotTaken, cause: error });
    if (violatesForeignKey(error, "cart_items_user_id_fkey")) {
      throw new TRPCError({ code: "UNAUTHORIZED", message: messages.auth.signInRequired, cause: error });
    }
    throw error;
  }
}

/** Moves one of the caller's bookings (any, for an admin) to another free time; the old one is free at once. */
export async function moveBooking({ ctx, input }: { ctx: Ctx; input: MoveBookingInput }): Promise<{ message: string }> {
  try {
    const moved = await ctx.db.transaction((trx) => moveBookingTo(trx, input.bookingId, input.startsAt));
    return { message: messages.bookings.moved(moved.name, formatDateTime(moved.startsAt)) };
  } catch (error) {
    throw bookingChangeError(error);
  }
}

/** Cancels one of the caller's bookings until the notice limit (any, for an admin); its time is free at once and the customer is mailed. */
export async function cancelBooking({ ctx, input }: { ctx: Ctx; input: CancelBookingInput }): Promise<{ message: string }> {
  try {
    const cancelled = await ctx.db.transaction((trx) => cancelBookingRow(trx, input.bookingId));
    return { message: messages.bookings.cancelled(cancelled.name, formatDateTime(cancelled.startsAt)) };
  } catch (error) {
    throw bookingChangeError(error);
  }
}

/** move_booking()'s and cancel_booking()'s refusals in the caller's words. */
function bookingChangeError(error: unknown): unknown {
  const code = sqlErrorCode(error);
  if (code === "booking_not_found" || code === "not_bookable") return new TRPCError({ code: "NOT_FOUND", message: messages.bookings.bookingNotFound, cause: error });
  if (code === "booking_cancelled") return new TRPCError({ code: "CONFLICT", message: messages.bookings.bookingCancelled, cause: error });
  if (code === "booking_too_late") return new TRPCError({ code: "PRECONDITION_FAILED", message: messages.bookings.tooLate, cause: error });
  if (code === "slot_taken") return new TRPCError({ code: "CONFLICT", message: messages.bookings.slotTaken, cause: error });
  return error;
}
