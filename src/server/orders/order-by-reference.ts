import { TRPCError } from "@trpc/server";
import { orderPageMessages } from "@/lib/messages";
import type { TRPCContext } from "@/server/api/trpc";
import type { SessionUser } from "@/server/auth/session-user";
import { bankTransferStatus } from "@/server/settings/bank-transfer";
import { findOrderByReference } from "./order-queries";
import type { OrderByReferenceInput } from "./schemas";

type Ctx = Pick<TRPCContext, "db" | "storage" | "settings" | "production" | "payments"> & { user: SessionUser };

/**
 * orders.byReference: one order's page. RLS decides whose: a customer's own (anyone else's is
 * NOT_FOUND, as one that does not exist), an admin's any. While the order waits for payment it
 * carries the shop's bank account for the transfer and, for its customer, the ways to pay it:
 * "Pay now" where PayFast is set up, or a proof upload, while no proof has been sent.
 */
export async function orderByReference({ ctx, input }: { ctx: Ctx; input: OrderByReferenceInput }) {
  const order = await ctx.db.transaction((trx) => findOrderByReference(trx, ctx.storage, input.reference));
  if (!order) throw new TRPCError({ code: "NOT_FOUND", message: orderPageMessages.notFound });
  const unpaid = order.status === "pending_payment";
  // Paying is the customer's (payments.* are customer procedures); an admin only looks.
  const payable = unpaid && order.proofUrl === null && ctx.user.role !== "admin";
  // Read after the transaction: on PGlite a read inside it would wait for it forever.
  const { bank } = await ctx.settings.published();
  const bankTransfer = bankTransferStatus(bank, ctx.production);
  // An order with a deposit (docs/bookings.md): its balance, once the deposit is received, until it is paid or proved.
  const balance = order.balance;
  const balancePayable =
    balance !== null && balance.paidAt === null && balance.proofUrl === null && (order.status === "pending_delivery" || order.status === "complete") && ctx.user.role !== "admin";
  const online = (payable || balancePayable) && (await ctx.payments.settings.credentials()) !== null;
  const payNow = payable && online;
  return {
    ...order,
    /** Still waiting for a payment its customer can make here (no proof sent yet). */
    payable,
    /** "Pay now" (PayFast) is offered for it. */
    payNow,
    /** The account to pay into while the order is unpaid (none while bank transfer takes no orders). */
    bank: unpaid && bankTransfer !== "not_set_up" ? bank : null,
    bankTransfer,
    /** Its customer may pay the balance now: by bank transfer into `balanceBank` (with the balance's reference), or online where `balancePayNow`. */
    balancePayable,
    balanceBank: balancePayable && bankTransfer !== "not_set_up" ? bank : null,
    balancePayNow: balancePayable && online,
  };
}
