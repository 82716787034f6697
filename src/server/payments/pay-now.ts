import { TRPCError } from "@trpc/server";
import { env } from "@/env";
import { messages } from "@/lib/messages";
import type { TRPCContext } from "@/server/api/trpc";
import type { SessionUser } from "@/server/auth/session-user";
import { beginPayment } from "@/server/checkout/checkout-queries";
import { toCheckoutError } from "@/server/checkout/place-order";
import type { Order } from "@/server/db/schema";
import { publicOrigin } from "@/server/http/redirect";
import type { HostedPayment, PaymentUrls } from "@/server/ports/payments";
import { userLimitKey } from "@/server/security/rate-limit";
import { tooManyRequests } from "@/server/security/too-many-requests";
import type { OnlinePayments } from "./online-payments";
import { orderPath } from "@/lib/order-paths";
import { ownBalance, ownOrder, placeOrderPayNow } from "./payment-queries";
import type { OrderPaymentInput, PayNowInput } from "./schemas";

const m = messages.payments;

type Ctx = Pick<TRPCContext, "db" | "headers" | "production" | "limits"> & { user: SessionUser; payments: OnlinePayments };

/**
 * Where the provider sends the customer back and posts its notification: the shop's SITE_URL.
 * Outside production, without SITE_URL, the address the browser used (a developer's machine).
 * In production without it the notification would go wherever a request's Host said: refused.
 */
function paymentUrls(ctx: Pick<Ctx, "headers" | "production">, orderId: string, provider: string): PaymentUrls {
  if (ctx.production && !env.SITE_URL) {
    console.error("[payments] paying online needs SITE_URL (the shop's public address) in production");
    throw new TRPCError({ code: "PRECONDITION_FAILED", message: m.unavailable });
  }
  const origin = publicOrigin(ctx.headers);
  const order = encodeURIComponent(orderId);
  return {
    returnUrl: `${origin}/checkout/return?order=${order}`,
    cancelUrl: `${origin}/checkout/cancelled?order=${order}`,
    notifyUrl: `${origin}/api/payments/${provider}/notify`,
  };
}

/** What a payment form needs of an order: ownOrder()'s row, or the one place_order_pay_now() returned. */
type PayableRow = Pick<Order, "id" | "reference" | "total" | "deposit" | "status" | "customer_name" | "customer_email" | "proof_path">;

/** One of the caller's own orders (RLS), as a payment form needs it. */
const readOwnOrder = (ctx: Ctx, orderId: string) => ctx.db.transaction((trx) => ownOrder(trx, orderId));

/** The signed form for one of the caller's orders still waiting for payment, and that order. */
async function hostedPaymentFor(ctx: Ctx, order: PayableRow | undefined): Promise<{ payment: HostedPayment; order: PayableRow }> {
  const credentials = await ctx.payments.settings.credentials();
  if (!credentials) throw new TRPCError({ code: "PRECONDITION_FAILED", message: m.unavailable });
  if (!order || order.status !== "pending_payment" || order.proof_path !== null) throw new TRPCError({ code: "CONFLICT", message: m.notPayable });
  const { provider } = ctx.payments;
  // What checkout asked: the deposit of an order with bookings asking one (docs/bookings.md), else the total.
  const payment = provider.startPayment(
    { id: order.id, reference: order.reference, total: Number(order.deposit ?? order.total).toFixed(2), customerName: order.customer_name, customerEmail: order.customer_email },
    paymentUrls(ctx, order.id, provider.id),
    credentials,
  );
  return { payment, order };
}

/**
 * payments.payNow: checkout's "Pay now". The order is placed as every order is (the customer's
 * checkout limit and idempotency key counted in the payment's first statement, then
 * place_order_pay_now(): reference, prices, cart emptied, all or nothing) without a proof, and
 * the customer gets the provider's signed form to post. A retry with the same key returns the
 * form for the order the first try placed.
 */
export async function payNow({ ctx, input }: { ctx: Ctx; input: PayNowInput }): Promise<HostedPayment & { orderId: string; reference: string }> {
  if (!(await ctx.payments.settings.credentials())) throw new TRPCError({ code: "PRECONDITION_FAILED", message: m.unavailable });
  const start = await ctx.db.transaction((trx) =>
    beginPayment(trx, { idempotencyKey: input.idempotencyKey, limit: ctx.limits.checkout.takeSql(userLimitKey(ctx.user.id)) }),
  );
  if (start.wait > 0) throw tooManyRequests(start.wait);
  // A retry finds the first try's order; a new one is the row place_order_pay_now() returned.
  let placed: PayableRow | undefined;
  if (start.earlier) {
    placed = await readOwnOrder(ctx, start.earlier.id);
  } else {
    if (!start.hasCartLines) throw new TRPCError({ code: "BAD_REQUEST", message: messages.checkout.cartEmptyOrSignedOut });
    try {
      placed = await ctx.db.transaction((trx) => placeOrderPayNow(trx, input));
    } catch (error) {
      throw toCheckoutError(error);
    }
  }
  const { payment, order } = await hostedPaymentFor(ctx, placed);
  return { ...payment, orderId: order.id, reference: order.reference };
}

/** payments.payAgain: the form again, for an order whose payment was cancelled or never finished. */
export async function payAgain({ ctx, input }: { ctx: Ctx; input: OrderPaymentInput }): Promise<HostedPayment> {
  return (await hostedPaymentFor(ctx, await readOwnOrder(ctx, input.orderId))).payment;
}

/**
 * payments.payBalance: the provider's form for the balance of one of the caller's orders with a
 * deposit (docs/bookings.md), under the balance's own reference, once the deposit is received and
 * while the balance is neither paid nor proved by a bank transfer. The provider sends the
 * customer back to the order's page.
 */
export async function payBalance({ ctx, input }: { ctx: Ctx; input: OrderPaymentInput }): Promise<HostedPayment> {
  const credentials = await ctx.payments.settings.credentials();
  if (!credentials) throw new TRPCError({ code: "PRECONDITION_FAILED", message: m.unavailable });
  const order = await ctx.db.transaction((trx) => ownBalance(trx, input.orderId));
  if (!order) throw new TRPCError({ code: "NOT_FOUND", message: messages.bookings.balanceNotDue });
  if (
    !order.balance_reference ||
    order.balance === null ||
    order.balance_paid_at !== null ||
    order.balance_proof_path !== null ||
    (order.status !== "pending_delivery" && order.status !== "complete")
  ) {
    throw new TRPCError({ code: "CONFLICT", message: messages.bookings.balanceNotDue });
  }
  const { provider } = ctx.payments;
  const urls = paymentUrls(ctx, order.id, provider.id);
  const page = `${publicOrigin(ctx.headers)}${orderPath(order.reference)}`;
  return provider.startPayment(
    { id: order.id, reference: order.balance_reference, total: order.balance, customerName: order.customer_name, customerEmail: order.customer_email },
    { ...urls, returnUrl: page, cancelUrl: page },
    credentials,
  );
}
