import { TRPCError } from "@trpc/server";
import { messages } from "@/lib/messages";
import { adminOrdersInput, updateStatusInput } from "@/lib/order-status";
import { adminProcedure, createTRPCRouter } from "@/server/api/trpc";
import { listOrders } from "@/server/orders/order-queries";

const m = messages.adminOrders;

export const adminOrdersRouter = createTRPCRouter({
  /** Every order (RLS: admins see all), newest first, by status and/or reference or email. */
  list: adminProcedure.input(adminOrdersInput).query(async ({ ctx, input }) => {
    try {
      return await ctx.db.transaction((trx) => listOrders(trx, ctx.storage, { status: input?.status, search: input?.search || undefined }));
    } catch (error) {
      throw new TRPCError({ code: "INTERNAL_SERVER_ERROR", message: m.loadFailed, cause: error });
    }
  }),

  /** Sets an order's status at once; the change is recorded (who, when, from, to) by a trigger. */
  updateStatus: adminProcedure.input(updateStatusInput).mutation(async ({ ctx, input }) => {
    let order;
    try {
      order = await ctx.db.transaction((trx) =>
        trx.updateTable("orders").set({ status: input.status }).where("id", "=", input.id).returning(["reference", "status"]).executeTakeFirst(),
      );
    } catch (error) {
      throw new TRPCError({ code: "INTERNAL_SERVER_ERROR", message: m.updateFailed, cause: error });
    }
    if (!order) throw new TRPCError({ code: "NOT_FOUND", message: m.updateFailed });
    return { message: m.updated(order.reference, messages.adminStatus[order.status]) };
  }),
});
