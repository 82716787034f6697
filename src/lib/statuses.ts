/**
 * Every status-like value the database knows, declared once: the `order_status` and `user_role`
 * enums and the text columns with a fixed set of values (their checks in supabase/migrations).
 * The query layer's row types (src/server/db/schema.ts), the zod schemas and the pages take them
 * from here; tests/db/statuses.test.ts checks each list against the database's own.
 */

/** The order_status enum, in the admin's filter order (docs/architecture.md#money-statuses-and-references). */
export const ORDER_STATUSES = ["pending_payment", "pending_delivery", "complete", "cancelled"] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** The user_role enum. */
export const USER_ROLES = ["user", "admin"] as const;
export type UserRole = (typeof USER_ROLES)[number];

/** How an order is (to be) paid: bank transfer with a proof, or online through a provider (docs/architecture.md#payments). */
export const PAYMENT_METHODS = ["bank_transfer", "payfast"] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

/** What a provider's payment did: paid the order, or arrived when it was no longer payable. */
export const PAYMENT_OUTCOMES = ["applied", "refund_due"] as const;
export type PaymentOutcome = (typeof PAYMENT_OUTCOMES)[number];

/** How an order reaches the customer (docs/architecture.md#delivery-and-collection); null on orders from before. */
export const FULFILMENT_METHODS = ["delivery", "collection"] as const;
export type FulfilmentMethod = (typeof FULFILMENT_METHODS)[number];

/** An invoice row's kind: a tax invoice or invoice for a payment, or a credit note that reverses one. */
export const INVOICE_KINDS = ["invoice", "credit_note"] as const;
export type InvoiceKind = (typeof INVOICE_KINDS)[number];

/** The outbox's channels (docs/whatsapp.md): e-mail, or WhatsApp while the customer consents. */
export const MESSAGE_CHANNELS = ["email", "whatsapp"] as const;
export type MessageChannel = (typeof MESSAGE_CHANNELS)[number];

/** What WhatsApp last said about a message it was given (its status webhooks). */
export const DELIVERY_STATUSES = ["sent", "delivered", "read", "failed"] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** What a customer may consent to: order updates on WhatsApp, and (kept apart, unused for now) offers. */
export const CONSENT_KINDS = ["whatsapp_updates", "offers"] as const;
export type ConsentKind = (typeof CONSENT_KINDS)[number];

/** Where a consent was given. */
export const CONSENT_SOURCES = ["profile", "signup", "checkout"] as const;
export type ConsentSource = (typeof CONSENT_SOURCES)[number];

/** The quote_status enum: a quote version's life (docs/quotes.md). */
export const QUOTE_STATUSES = ["draft", "sent", "accepted", "declined", "superseded"] as const;
export type QuoteStatus = (typeof QUOTE_STATUSES)[number];

/** How a version reads (public.quote_state()): its status, or "expired" for a sent one past its date. */
export const QUOTE_STATES = [...QUOTE_STATUSES, "expired"] as const;
export type QuoteState = (typeof QUOTE_STATES)[number];

/** products.quote_mode: "Request a quote" not offered, beside Add to Cart, or instead of it (docs/quotes.md). */
export const QUOTE_MODES = ["off", "beside", "instead"] as const;
export type QuoteMode = (typeof QUOTE_MODES)[number];
