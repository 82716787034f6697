import { TRPCError } from "@trpc/server";
import { messages } from "@/lib/messages";
import type { TRPCContext } from "@/server/api/trpc";
import type { SessionUser } from "@/server/auth/session-user";
import type { Order } from "@/server/db/schema";
import { isNumericOverflow, sqlErrorCode, sqlErrorDetail, stockShortfall, takenSlot } from "@/server/db/sql-errors";
import { toFulfilmentError } from "@/server/fulfilment/fulfilment-errors";
import type { StoredObject } from "@/server/ports/storage";
import { userLimitKey } from "@/server/security/rate-limit";
import { tooManyRequests } from "@/server/security/too-many-requests";
import { bankTransferStatus } from "@/server/settings/bank-transfer";
import { readUpload } from "@/server/storage/read-upload";
import { removeQuietly, storeThenWrite, timestampedName } from "@/server/storage/store-upload";
import { beginPayment, placeOrderRow } from "./checkout-queries";
import type { PlaceOrderInput } from "./schemas";

const m = messages.checkout;

export interface PlacedOrder {
  orderId: string;
  reference: string;
  message: string;
}

function placed(order: Pick<Order, "id" | "reference">): PlacedOrder {
  return { orderId: order.id, reference: order.reference, message: m.success(order.reference) };
}

/**
 * checkout.placeOrder, all or nothing (docs/architecture.md#files). Refused while the shop cannot be paid by
 * bank transfer (the demo account in production: the customer would have paid a placeholder),
 * before anything is counted or uploaded. Then counts the try against the customer's checkout
 * limit (CHECKOUT_LIMIT) in the payment's first statement, checks the proof by content, stores
 * it, and places the order through place_order() in the transaction that writes the proof's
 * storage row (storeThenWrite): if placing fails, the proof is gone and the cart untouched. A
 * retry with the same idempotency key returns the first order. Two transactions in all: checkout
 * is the shop's busiest write (BENCHMARKS.md).
 */
export async function placeOrder({
  ctx,
  input,
}: {
  ctx: Pick<TRPCContext, "db" | "storage" | "settings" | "production" | "limits"> & { user: SessionUser };
  input: PlaceOrderInput;
}): Promise<PlacedOrder> {
  const { bank } = await ctx.settings.published();
  if (bankTransferStatus(bank, ctx.production) === "not_set_up") {
    throw new TRPCError({ code: "PRECONDITION_FAILED", message: m.bankTransferNotSetUp });
  }

  const start = await ctx.db.transaction((trx) =>
    beginPayment(trx, { idempotencyKey: input.idempotencyKey, limit: ctx.limits.checkout.takeSql(userLimitKey(ctx.user.id)) }),
  );
  if (start.wait > 0) throw tooManyRequests(start.wait);
  if (start.earlier) return placed(start.earlier);
  if (!start.hasCartLines) throw new TRPCError({ code: "BAD_REQUEST", message: m.cartEmptyOrSignedOut });

  // No proof: place_order() takes it only for a cart with nothing due now (bookings without a
  // deposit, docs/bookings.md) and refuses every other with the spec's message.
  if (!input.proof) {
    const order = await ctx.db
      .transaction((trx) => placeOrderRow(trx, { idempotencyKey: input.idempotencyKey, reference: input.reference, proofPath: null, fulfilment: input.fulfilment }))
      .catch((error: unknown) => {
        throw toCheckoutError(error);
      });
    return placed(order);
  }

  const upload = await readUpload(input.proof, "proof");
  const proof: StoredObject = { bucket: "payments", path: `${ctx.user.id}/${timestampedName(upload.fileName)}` };
  const order = await storeThenWrite(
    ctx,
    { object: proof, bytes: upload.bytes, contentType: upload.type },
    (trx) => placeOrderRow(trx, { idempotencyKey: input.idempotencyKey, reference: input.reference, proofPath: proof.path, fulfilment: input.fulfilment }),
    toCheckoutError,
  );
  // A concurrent retry with the same key may have won: its order keeps its own proof.
  if (order.proof_path !== proof.path) await removeQuietly(ctx, proof, "an unused proof of payment");
  return placed(order);
}

/** place_order()'s refusals in the customer's words (checkout and "Pay now" alike). */
export function toCheckoutError(error: unknown): unknown {
  // place_order() sums the cart into orders.total, numeric(12, 2): a cart past R9,999,999,999.99
  // (a large quantity of a dear product) cannot be one order. The cart stays as it was.
  if (isNumericOverflow(error)) return new TRPCError({ code: "BAD_REQUEST", message: m.totalTooLarge, cause: error });
  switch (sqlErrorCode(error)) {
    case "cart_empty":
    case "not_authenticated":
      return new TRPCError({ code: "BAD_REQUEST", message: m.cartEmptyOrSignedOut, cause: error });
    case "product_unavailable":
      return new TRPCError({ code: "BAD_REQUEST", message: m.itemsUnavailable, cause: error });
    // Counted stock ran short (another customer bought the last units first): nothing was taken.
    case "not_enough_stock": {
      const { name, left } = stockShortfall(error);
      return new TRPCError({ code: "CONFLICT", message: m.notEnoughStock(name ?? "An item", left), cause: error });
    }
    // A bookable service's slot, whose hold had expired, was booked by someone else meanwhile.
    case "slot_taken": {
      const { name, when } = takenSlot(error);
      return new TRPCError({ code: "CONFLICT", message: m.slotTaken(name, when), cause: error });
    }
    // The owner changed the product's personalisation fields since the line was added.
    case "personalisation_stale": {
      const name = sqlErrorDetail(error)?.name;
      return new TRPCError({ code: "CONFLICT", message: m.personalisationStale(typeof name === "string" ? name : "An item"), cause: error });
    }
    case "proof_required":
    case "proof_invalid":
      return new TRPCError({ code: "BAD_REQUEST", message: m.proofRequired, cause: error });
    // "Pay now" for a cart of bookings that ask no deposit: there is nothing to take online.
    case "nothing_due_now":
      return new TRPCError({ code: "BAD_REQUEST", message: messages.bookings.nothingToPayOnline, cause: error });
    case "reference_invalid":
      return new TRPCError({ code: "BAD_REQUEST", message: m.referenceInvalid, cause: error });
    // Not the customer's open reservation: placed already (another tab), or never theirs.
    case "reference_stale":
      return new TRPCError({ code: "CONFLICT", message: m.referenceStale, cause: error });
    // "Pay now" while the owner has just switched PayFast off.
    case "pay_now_unavailable":
      return new TRPCError({ code: "PRECONDITION_FAILED", message: messages.payments.unavailable, cause: error });
    // Fulfilment (docs/architecture.md#delivery-and-collection): each refusal changes nothing, the
    // cart and reference stay; anything else unexpected: "Failed to place order. Please try
    // again." (the router's meta).
    default:
      return toFulfilmentError(error);
  }
}
