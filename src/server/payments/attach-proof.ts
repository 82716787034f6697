import { TRPCError } from "@trpc/server";
import { messages } from "@/lib/messages";
import type { TRPCContext } from "@/server/api/trpc";
import type { SessionUser } from "@/server/auth/session-user";
import { sqlErrorCode } from "@/server/db/sql-errors";
import type { StoredObject } from "@/server/ports/storage";
import { readUpload } from "@/server/storage/read-upload";
import { storeThenWrite, timestampedName } from "@/server/storage/store-upload";
import { attachProofRow } from "./payment-queries";
import type { AttachProofInput } from "./schemas";

const m = messages.payments;

/**
 * payments.attachProof: an order whose online payment did not go through is paid by bank
 * transfer after all. The proof is checked by content and stored as checkout stores one, and
 * attach_payment_proof() names it on the order in the transaction that writes its storage row:
 * only the customer's own order, still pending payment and without a proof.
 */
export async function attachProof({
  ctx,
  input,
}: {
  ctx: Pick<TRPCContext, "db" | "storage"> & { user: SessionUser };
  input: AttachProofInput;
}): Promise<{ message: string; reference: string }> {
  const upload = await readUpload(input.proof, "proof");
  const proof: StoredObject = { bucket: "payments", path: `${ctx.user.id}/${timestampedName(upload.fileName)}` };
  const order = await storeThenWrite(
    ctx,
    { object: proof, bytes: upload.bytes, contentType: upload.type },
    (trx) => attachProofRow(trx, { orderId: input.orderId, proofPath: proof.path }),
    (cause) => {
      switch (sqlErrorCode(cause)) {
        case "order_unknown":
        case "order_not_payable":
          return new TRPCError({ code: "CONFLICT", message: m.notPayable, cause });
        case "proof_invalid":
          return new TRPCError({ code: "BAD_REQUEST", message: messages.checkout.proofRequired, cause });
        default:
          return cause;
      }
    },
  );
  return { message: m.proofAttached(order.reference), reference: order.reference };
}
