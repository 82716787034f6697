/**
 * The payment port (docs/architecture.md#ports-and-the-platform, #payments): an online payment provider behind a hosted page.
 * Checkout starts a payment for an order that exists already (placed `pending_payment` by the
 * same SQL path as every order) and sends the customer to the provider; the provider tells the
 * shop by a server-to-server notification, which the payments domain believes only after every
 * check the provider documents, in the provider's order:
 *
 *   1. `authenticate`: the notification is the provider's (its signature; the sender's address
 *      where the provider publishes them), and says which order and how much;
 *   2. the domain compares the amount and the reference with the order (in SQL, not here);
 *   3. `confirm`: the provider's own server confirms the data, where it offers that.
 *
 * An adapter moves messages only: it never opens a transaction nor calls the domain back.
 * PayFast is the first adapter (MD5 signatures, address ranges, a validate post-back); Yoco or
 * Ozow fit the same shape (an HMAC-signed webhook: `authenticate` checks it, `confirm` has
 * nothing more to ask).
 */

/** The providers the shop knows (orders.payment_method, payments.provider). */
export type PaymentProviderId = "payfast";

/** The provider's credentials as the owner saved them in Shop settings (never sent to a browser). */
export interface PaymentCredentials {
  merchantId: string;
  merchantKey: string;
  /** Empty when the owner set none on the provider's side. */
  passphrase: string;
  /** The provider's test system instead of the live one. */
  sandbox: boolean;
}

/** The order a payment is for, as the customer's checkout placed it. */
export interface PayableOrder {
  id: string;
  reference: string;
  /** Rands, two decimals ("1250.00"), as SQL priced it. */
  total: string;
  customerName: string;
  customerEmail: string;
}

/** Where the provider sends the customer back to and posts its notification (absolute, the shop's SITE_URL). */
export interface PaymentUrls {
  returnUrl: string;
  cancelUrl: string;
  notifyUrl: string;
}

/** The hosted payment page: a form the customer's browser posts, fields in the order they must be sent. */
export interface HostedPayment {
  action: string;
  fields: [name: string, value: string][];
}

/** A notification as the HTTP handler received it. */
export interface PaymentNotification {
  /** The raw `application/x-www-form-urlencoded` body, fields in the order sent. */
  body: string;
  /** The sender's address (the connection's, or the trusted proxy's last hop). */
  sourceAddress: string;
}

/** What an authenticated notification says. */
export interface ClaimedPayment {
  provider: PaymentProviderId;
  /** The provider's id of the transaction: one payment row per id. */
  providerPaymentId: string;
  /** The shop's order id, as the payment was started with. */
  orderId: string;
  /** The order reference the payment was started with. */
  reference: string;
  /** Rands in cents, exactly as notified. */
  amountCents: number;
  /** Whether the money was taken (anything else changes nothing). */
  complete: boolean;
  /** The notification's fields, minus the signature, for the records. */
  details: Record<string, string>;
}

/**
 * A check passed, or the reason it refused (logged; nothing changes). `retry`: the check could
 * not be made (the provider's server unreachable), so the provider should send it again.
 */
export type Checked<T> = { ok: true; value: T } | { ok: false; reason: string; retry?: boolean };

export interface PaymentProvider {
  readonly id: PaymentProviderId;
  /** The provider's name as customers and admins read it ("PayFast"). */
  readonly label: string;
  /** The origin the hosted page's form posts to (the Content-Security-Policy's form-action allows it). */
  formOrigin(credentials: PaymentCredentials): string;
  /** The signed form that starts a payment for `order` on the provider's hosted page. */
  startPayment(order: PayableOrder, urls: PaymentUrls, credentials: PaymentCredentials): HostedPayment;
  /** Checks 1: the notification is the provider's and untampered; what it claims. */
  authenticate(notification: PaymentNotification, credentials: PaymentCredentials): Checked<ClaimedPayment>;
  /** Check 3: the provider's own server confirms the notification (a network call). */
  confirm(notification: PaymentNotification, credentials: PaymentCredentials): Promise<Checked<true>>;
}
