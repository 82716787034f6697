import { toCents } from "@/lib/money";
import { SERVICE, scopedDb } from "@/server/db/as-caller";
import type { ShopDatabase } from "@/server/db/database";
import type { PaymentNotification } from "@/server/ports/payments";
import type { OnlinePayments } from "./online-payments";
import { orderForPayment, recordPayment, type RecordedPayment } from "./payment-queries";

/** How the notification route answers: 200 once the notification is dealt with, else why not. */
export type NotificationResult =
  | { status: 200; outcome: RecordedPayment | "not_complete" }
  | { status: 400; reason: string }
  /** The check could not be made (the provider's server unreachable, the database down): send it again. */
  | { status: 503; reason: string };

/**
 * A provider's payment notification (docs/architecture.md#payments). Believed only after every check, in the
 * provider's documented order, each refusal logged with its reason and nothing changed:
 * the signature and the sender (the adapter's `authenticate`), the amount to the cent and the
 * reference against the order, then the provider's own confirmation. Then recorded once,
 * in one transaction with the order's status change, its history and its mails
 * (record_online_payment()). A repeat of a recorded payment changes nothing.
 *
 * The server's service identity reads the order and records the payment: the notification has no
 * caller, and both are functions granted to service_role only (SERVICE, named here for that).
 */
export async function receivePaymentNotification(
  database: ShopDatabase,
  payments: OnlinePayments,
  notification: PaymentNotification,
  log: Pick<Console, "info" | "warn" | "error"> = console,
): Promise<NotificationResult> {
  const { provider } = payments;
  const refuse = (reason: string): NotificationResult => {
    log.warn(`[payments] ${provider.label} notification refused: ${reason}`);
    return { status: 400, reason };
  };
  const credentials = await payments.settings.credentials();
  if (!credentials) return refuse(`${provider.label} is not set up in Shop settings`);

  const claimed = provider.authenticate(notification, credentials);
  if (!claimed.ok) return refuse(claimed.reason);
  const payment = claimed.value;

  const service = scopedDb(database.kysely, SERVICE);
  const order = await service.transaction((trx) => orderForPayment(trx, payment.orderId));
  if (!order) return refuse(`unknown order ${payment.orderId}`);
  // The order's own reference pays what checkout asked (its total, or its deposit); its balance
  // reference (an order with bookings asking a deposit, docs/bookings.md) pays the balance.
  const forBalance = order.balance_reference !== null && payment.reference === order.balance_reference;
  if (order.reference !== payment.reference && !forBalance) return refuse(`reference ${JSON.stringify(payment.reference.slice(0, 20))} is not order ${order.reference}'s`);
  const due = forBalance ? order.balance : order.due_now;
  if (due === null || toCents(due) !== payment.amountCents) {
    const what = forBalance ? `balance ${order.balance ?? ""}` : order.due_now === order.total ? `total ${order.total}` : `deposit ${order.due_now}`;
    return refuse(`amount ${(payment.amountCents / 100).toFixed(2)} is not order ${order.reference}'s ${what}`);
  }

  const confirmed = await provider.confirm(notification, credentials);
  if (!confirmed.ok) {
    if (confirmed.retry) {
      log.error(`[payments] ${provider.label} notification for ${order.reference} not confirmed yet: ${confirmed.reason}`);
      return { status: 503, reason: confirmed.reason };
    }
    return refuse(confirmed.reason);
  }
  if (!payment.complete) {
    log.info(`[payments] ${provider.label} says order ${order.reference}'s payment ${payment.providerPaymentId} is ${payment.details.payment_status ?? "not complete"}: nothing to do`);
    return { status: 200, outcome: "not_complete" };
  }

  const outcome = await service.transaction((trx) =>
    recordPayment(trx, {
      provider: payment.provider,
      providerPaymentId: payment.providerPaymentId,
      orderId: order.id,
      amount: (payment.amountCents / 100).toFixed(2),
      details: payment.details,
      reference: payment.reference,
    }),
  );
  if (outcome === "applied") log.info(`[payments] order ${order.reference} paid by ${provider.label} (${payment.providerPaymentId})`);
  else if (outcome === "refund_due") log.warn(`[payments] ${provider.label} payment ${payment.providerPaymentId} for order ${order.reference}, which was ${order.status}: recorded, refund due`);
  return { status: 200, outcome };
}
