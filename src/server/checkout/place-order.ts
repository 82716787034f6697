import { sql } from "kysely";
import { TRPCError } from "@trpc/server";
import type { PlaceOrderInput } from "@/server/checkout/schemas";
import { messages } from "@/lib/messages";
import { tooManyRequests, type TRPCContext } from "@/server/api/trpc";
import type { SessionUser } from "@/server/auth/session-user";
import type { ScopedDb, Tx } from "@/server/db/as-caller";
import type { Order } from "@/server/db/schema";
import { isNumericOverflow, sqlErrorCode } from "@/server/db/sql-errors";
import type { StoragePort, StoredObject } from "@/server/ports/storage";
import { bankTransferStatus } from "@/server/settings/bank-transfer";
import { readUpload } from "@/server/storage/read-upload";
import { removeQuietly, storeThenWrite, timestampedName } from "@/server/storage/store-upload";
import { userLimitKey, type RateLimiter } from "@/server/security/rate-limit";
import { beginPayment } from "./checkout-queries";

const m = messages.checkout;

/** Calls place_order() as the caller: the one way an order comes to exist. */
export async function placeOrderSql(trx: Tx, args: { idempotencyKey: string; reference: string; proofPath: string }): Promise<Order> {
  const { rows } = await sql<Order>`
    select * from public.place_order(${args.idempotencyKey}::uuid, ${args.reference}, ${args.proofPath})`.execute(trx);
  const order = rows[0];
  if (!order) throw new Error("place_order returned no row");
  return order;
}

export interface PlaceOrderDeps {
  db: ScopedDb;
  storage: StoragePort;
  userId: string;
  /** The checkout limit (CHECKOUT_LIMIT), counted in the payment's first statement. */
  limit: RateLimiter;
  /** Replaced in fault-injection tests. */
  placeOrder?: typeof placeOrderSql;
}

export interface PlacedOrder {
  orderId: string;
  reference: string;
  message: string;
}

function placed(order: Pick<Order, "id" | "reference">): PlacedOrder {
  return { orderId: order.id, reference: order.reference, message: m.success(order.reference) };
}

/**
 * Checkout, all or nothing (ARCHITECTURE §6): counts the try against the customer's limit, checks
 * the proof by content, then stores it and places the order through place_order() as one step
 * (the storage port's upload): if placing fails, the proof is gone and the cart untouched. A
 * retry with the same idempotency key returns the first order. Two transactions in all: checkout
 * is the shop's busiest write (BENCHMARKS.md).
 */
export async function placeOrderWithProof(deps: PlaceOrderDeps, input: PlaceOrderInput): Promise<PlacedOrder> {
  const { db, storage } = deps;

  const start = await db.transaction((trx) =>
    beginPayment(trx, { idempotencyKey: input.idempotencyKey, limit: deps.limit.takeSql(userLimitKey(deps.userId)) }),
  );
  if (start.wait > 0) throw tooManyRequests(start.wait);
  if (start.earlier) return placed(start.earlier);
  if (!start.hasCartLines) throw new TRPCError({ code: "BAD_REQUEST", message: m.cartEmptyOrSignedOut });

  const upload = await readUpload(input.proof, "proof");
  const proof: StoredObject = { bucket: "payments", path: `${deps.userId}/${timestampedName(upload.fileName)}` };
  const order = await storeThenWrite(
    { db, storage },
    { object: proof, bytes: upload.bytes, contentType: upload.type },
    (trx) => (deps.placeOrder ?? placeOrderSql)(trx, { idempotencyKey: input.idempotencyKey, reference: input.reference, proofPath: proof.path }),
    { onStoreFailed: (cause) => new TRPCError({ code: "INTERNAL_SERVER_ERROR", message: m.failed, cause }), onWriteFailed: toCheckoutError },
  );
  // A concurrent retry with the same key may have won: its order keeps its own proof.
  if (order.proof_path !== proof.path) await removeQuietly({ storage, db }, proof, "an unused proof of payment");
  return placed(order);
}

/**
 * checkout.placeOrder: refused while the shop cannot be paid by bank transfer (the demo account
 * in production: the customer would have paid a placeholder), before anything is counted or
 * uploaded. The checkout limit is counted by placeOrderWithProof, in its first statement.
 */
export async function placeOrder({
  ctx,
  input,
}: {
  ctx: Pick<TRPCContext, "db" | "storage" | "settings" | "production" | "limits"> & { user: SessionUser };
  input: PlaceOrderInput;
}) {
  const { bank } = await ctx.settings.published();
  if (bankTransferStatus(bank, ctx.production) === "not_set_up") {
    throw new TRPCError({ code: "PRECONDITION_FAILED", message: m.bankTransferNotSetUp });
  }
  return placeOrderWithProof({ db: ctx.db, storage: ctx.storage, userId: ctx.user.id, limit: ctx.limits.checkout }, input);
}

function toCheckoutError(error: unknown): TRPCError {
  // place_order() sums the cart into orders.total, numeric(12, 2): a cart past R9,999,999,999.99
  // (a large quantity of a dear product) cannot be one order. The cart stays as it was.
  if (isNumericOverflow(error)) return new TRPCError({ code: "BAD_REQUEST", message: m.totalTooLarge, cause: error });
  switch (sqlErrorCode(error)) {
    case "cart_empty":
    case "not_authenticated":
      return new TRPCError({ code: "BAD_REQUEST", message: m.cartEmptyOrSignedOut, cause: error });
    case "product_unavailable":
      return new TRPCError({ code: "BAD_REQUEST", message: m.itemsUnavailable, cause: error });
    case "proof_required":
    case "proof_invalid":
      return new TRPCError({ code: "BAD_REQUEST", message: m.proofRequired, cause: error });
    case "reference_invalid":
      return new TRPCError({ code: "BAD_REQUEST", message: m.referenceInvalid, cause: error });
    // Not the customer's open reservation: placed already (another tab), or never theirs.
    case "reference_stale":
      return new TRPCError({ code: "CONFLICT", message: m.referenceStale, cause: error });
    default:
      return new TRPCError({ code: "INTERNAL_SERVER_ERROR", message: m.failed, cause: error });
  }
}
