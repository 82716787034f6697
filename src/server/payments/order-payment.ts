import { TRPCError } from "@trpc/server";
import { messages } from "@/lib/messages";
import type { TRPCContext } from "@/server/api/trpc";
import { bankTransferStatus } from "@/server/settings/bank-transfer";
import { ownOrder } from "./payment-queries";
import type { OrderPaymentInput } from "./schemas";

/**
 * payments.order: where one of the caller's orders stands with its payment, for the pages the
 * provider sends the customer back to (paid, still waiting, or cancelled on PayFast's page), with
 * the shop's bank account while the order may still be paid by bank transfer. RLS: own orders only.
 */
export async function orderPayment({ ctx, input }: { ctx: Pick<TRPCContext, "db" | "settings" | "production">; input: OrderPaymentInput }) {
  const order = await ctx.db.transaction((trx) => ownOrder(trx, input.orderId));
  if (!order) throw new TRPCError({ code: "NOT_FOUND", message: messages.payments.notPayable });
  const payable = order.status === "pending_payment" && order.proof_path === null;
  const { bank } = await ctx.settings.published();
  return {
    id: order.id,
    reference: order.reference,
    /** What is paid now: the deposit of an order with bookings asking one (docs/bookings.md), else the total. */
    total: Number(order.deposit ?? order.total),
    status: order.status,
    paymentMethod: order.payment_method,
    /** Still waiting for a payment the customer can make (no proof uploaded yet). */
    payable,
    /** The account to pay into when switching to bank transfer (none while it takes no orders). */
    bank: payable && bankTransferStatus(bank, ctx.production) !== "not_set_up" ? bank : null,
  };
}
