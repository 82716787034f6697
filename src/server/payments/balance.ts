import { TRPCError } from "@trpc/server";
import { messages } from "@/lib/messages";
import type { TRPCContext } from "@/server/api/trpc";
import type { SessionUser } from "@/server/auth/session-user";
import { sqlErrorCode } from "@/server/db/sql-errors";
import type { StoredObject } from "@/server/ports/storage";
import { readUpload } from "@/server/storage/read-upload";
import { storeThenWrite, timestampedName } from "@/server/storage/store-upload";
import { attachBalanceProofRow, markBalancePaidRow } from "./payment-queries";
import type { AttachProofInput, OrderPaymentInput } from "./schemas";

const b = messages.bookings;

/** The refusals of attach_balance_proof() and mark_balance_paid(), in the caller's words. */
function balanceError(cause: unknown): unknown {
  switch (sqlErrorCode(cause)) {
    case "order_unknown":
      return new TRPCError({ code: "NOT_FOUND", message: b.balanceNotDue, cause });
    case "balance_not_due":
      return new TRPCError({ code: "CONFLICT", message: b.balanceNotDue, cause });
    case "proof_invalid":
      return new TRPCError({ code: "BAD_REQUEST", message: messages.checkout.proofRequired, cause });
    default:
      return cause;
  }
}

/**
 * payments.attachBalanceProof: the customer paid their order's balance by bank transfer (its own
 * reference, docs/bookings.md) and uploads the proof. Checked by content and stored as checkout
 * stores one; attach_balance_proof() names it on the order in the transaction that writes its
 * storage row: only the customer's own order, its deposit received, its balance still due.
 */
export async function attachBalanceProof({
  ctx,
  input,
}: {
  ctx: Pick<TRPCContext, "db" | "storage"> & { user: SessionUser };
  input: AttachProofInput;
}): Promise<{ message: string }> {
  const upload = await readUpload(input.proof, "proof");
  const proof: StoredObject = { bucket: "payments", path: `${ctx.user.id}/${timestampedName(upload.fileName)}` };
  const order = await storeThenWrite(
    ctx,
    { object: proof, bytes: upload.bytes, contentType: upload.type },
    (trx) => attachBalanceProofRow(trx, { orderId: input.orderId, proofPath: proof.path }),
    balanceError,
  );
  return { message: b.balanceProofUploaded(order.balance_reference ?? order.reference) };
}

/** adminOrders.markBalancePaid: an order's balance arrived; SQL issues its invoice and mails the customer. */
export async function markBalancePaid({ ctx, input }: { ctx: Pick<TRPCContext, "db">; input: OrderPaymentInput }): Promise<{ message: string }> {
  try {
    const order = await ctx.db.transaction((trx) => markBalancePaidRow(trx, input.orderId));
    return { message: b.balanceMarked(order.reference) };
  } catch (error) {
    throw balanceError(error);
  }
}
