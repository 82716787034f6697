import { FULFILMENT_METHODS, INVOICE_KINDS, ORDER_STATUSES, PAYMENT_METHODS } from "@/lib/statuses";
import { z } from "@/lib/zod";
import { ORDER_REFERENCE } from "@/server/checkout/schemas";

/**
 * What each mail template needs, checked before rendering: the data comes from the outbox's JSON
 * column (written by SQL, docs/architecture.md#mail-outbox), so its shape is only known once it is parsed here.
 */

/** A rand amount as Postgres's numeric(12,2) turns into JSON (149.5) or text ("149.50"). */
const rands = z
  .union([z.number(), z.string().trim().regex(/^\d{1,10}(\.\d{1,2})?$/, "Not a rand amount.").transform(Number)])
  .pipe(
    z
      .number()
      .nonnegative()
      .max(9_999_999_999.99)
      // Whole cents only, as numeric(12,2) stores them; anything finer is a bug upstream.
      .refine((value) => Math.abs(value * 100 - Math.round(value * 100)) < 1e-6, "At most two decimals."),
  );

const line = (max: number) => z.string().trim().min(1).max(max);
const email = z.string().trim().max(255).pipe(z.email());
const reference = z.string().trim().regex(ORDER_REFERENCE, "Not an order reference.");
/** A single-use account link's token (32 random bytes, base64url); REDACTED_TOKEN where admins read the outbox. */
const accountToken = z.string().regex(/^[A-Za-z0-9_-]{43}$|^REDACTED$/, "Not an account link token.");
/** What the admins' Outbox page shows instead of a link's token: the link is the account holder's alone. */
export const REDACTED_TOKEN = "REDACTED";
/** orders.customer_name: the profile's name, or its email when the name is blank (never empty). */
const customerName = line(255);

/** How an order is paid (orders.payment_method); mails written before online payments say nothing: bank transfer. */
const paymentMethod = z.enum(PAYMENT_METHODS).default("bank_transfer");

/** How and when the order reaches the customer (docs/architecture.md#delivery-and-collection); absent while the shop asks none. */
/** How and on which day an order reaches its customer, as the status and payment notices carry it. */
const fulfilmentDay = z.object({ method: z.enum(FULFILMENT_METHODS), day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/) });

const fulfilment = z
  .object({
    method: z.enum(FULFILMENT_METHODS),
    day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
    address: line(300).optional(),
    area: line(100).optional(),
    fee: rands.default(0),
    collectionAddress: line(300).optional(),
    /** The opening hours' open days (opening_hours, as data); mails queued before issue 34 carry the text instead. */
    openingHours: z
      .array(z.object({ weekday: z.int().min(1).max(7), opens: z.string().regex(/^\d{2}:\d{2}$/), closes: z.string().regex(/^\d{2}:\d{2}$/) }))
      .max(7)
      .optional(),
    collectionHours: line(200).optional(),
  })
  .optional();

/** The business's details a mail shows, from the shop settings (docs/architecture.md#shop-settings). */
export const mailShopSchema = z.object({
  name: line(100),
  /**
   * The shop's public origin, for links; only http(s), so no template ever links to `javascript:`.
   * (Not z.httpUrl(): it wants a dotted domain and refuses http://localhost:3000 in development.)
   */
  siteUrl: z
    .string()
    .trim()
    .pipe(z.url({ protocol: /^https?$/ }))
    .transform((url) => url.replace(/\/+$/, "")),
  email,
  phone: line(50),
  bank: z.object({
    accountName: line(100),
    bankName: line(100),
    accountNumber: line(40),
    branchCode: line(20),
    /** e.g. "Cheque" or "Current", as South African banks name the account. */
    accountType: line(40),
  }),
});

/** The shop's details as the caller passes them to renderMail. */
export type MailShop = z.input<typeof mailShopSchema>;
/** The shop's details after validation (siteUrl without a trailing slash). */
export type ParsedMailShop = z.output<typeof mailShopSchema>;

/** One booking as its notices carry it (private.booking_notice(), 095_bookings.sql). */
const bookingNotice = z.object({
  customerName,
  reference,
  bookingId: z.uuid(),
  name: line(500),
  startsAt: z.iso.datetime({ offset: true }),
  endsAt: z.iso.datetime({ offset: true }),
  cancelled: z.boolean(),
  /** The calendar file's version of the event (seconds): a later one replaces an earlier one. */
  sequence: z.int().min(0),
});

/** Each template's data. The keys are the template names stored in the outbox. */
export const mailDataSchemas = {
  /** To the customer, when the order is placed. */
  order_received: z.object({
    customerName,
    reference,
    items: z
      .array(
        z.object({
          name: line(500),
          quantity: z.int().min(1).max(100_000),
          unitPrice: rands,
          /** A bookable service's line: its booked time (docs/bookings.md). */
          startsAt: z.iso.datetime({ offset: true }).optional(),
          endsAt: z.iso.datetime({ offset: true }).optional(),
          /** Its booking: the calendar event's uid, kept when it is moved or cancelled. */
          bookingId: z.uuid().optional(),
        }),
      )
      .min(1)
      .max(500),
    total: rands,
    /** Checkout takes the proof with the order today; false words the mail for a later upload. */
    proofUploaded: z.boolean().default(true),
    /** "payfast": the customer is paying online ("Pay now"), so no bank details (mails before online payments: bank transfer). */
    paymentMethod: paymentMethod,
    fulfilment,
    /**
     * An order with bookings asking a deposit (docs/bookings.md): what is due now (0: nothing),
     * and the balance paid later under its own reference.
     */
    deposit: rands.optional(),
    balance: rands.optional(),
    balanceReference: line(20).optional(),
  }),
  /** To the customer, when an admin changes the order's status. */
  status_changed: z.object({
    customerName,
    reference,
    status: z.enum(ORDER_STATUSES),
    /** The order's way and day (the WhatsApp form names it; the mail reads the order page's). */
    fulfilment: fulfilmentDay.optional(),
    /** An admin marked the order's bank transfer received: the amount it paid (its deposit, or its total). */
    paidAmount: rands.optional(),
    /** The invoice (order paid) or credit note (paid order cancelled) this change issued, if any. */
    document: z
      .object({ id: z.uuid(), number: line(40), kind: z.enum(INVOICE_KINDS) })
      .optional(),
  }),
  /** To the customer, when the unpaid-order policy cancels an order. */
  order_cancelled_unpaid: z.object({
    customerName,
    reference,
    total: rands,
    /** The policy's number of days (shop settings). */
    days: z.int().min(1).max(365),
  }),
  /** To the shop's order-notice address, when an order is placed. */
  new_order: z.object({
    customerName,
    customerEmail: email,
    reference,
    total: rands,
    /** Units ordered: the sum of the lines' quantities. */
    itemCount: z.int().min(1),
    paymentMethod: paymentMethod,
    fulfilment,
  }),
  /** To the customer, when an online payment is recorded (or, refundDue, arrived after the order was cancelled or paid). */
  payment_received: z.object({
    customerName,
    reference,
    amount: rands,
    /** The provider's name ("PayFast"), or "bank transfer" for a balance an admin marked paid. */
    provider: line(50),
    refundDue: z.boolean(),
    /** For an order with bookings asking a deposit (docs/bookings.md): which part this paid. */
    part: z.enum(["deposit", "balance"]).optional(),
    /** The order's way and day, when this payment paid the order (not its balance). */
    fulfilment: fulfilmentDay.optional(),
  }),
  /** To the shop's order-notice address, for the same payment. */
  payment_notice: z.object({
    customerName,
    customerEmail: email,
    reference,
    amount: rands,
    provider: line(50),
    providerPaymentId: line(100),
    refundDue: z.boolean(),
    part: z.enum(["deposit", "balance"]).optional(),
  }),
  /** To the shop, from the contact form; the mail's Reply-To is the sender. */
  contact_message: z.object({
    name: line(100),
    email,
    // The form's phone is optional; SQL writes a missing one as null or "".
    phone: z.string().trim().max(30).nullish(),
    message: line(5000),
  }),
  /** To the former customer, after the account is deleted. */
  account_deleted: z.object({
    customerName,
  }),
  /** To the shop's order-notice address: a counted variant came to its low-stock mark. */
  low_stock: z.object({
    productId: z.uuid(),
    /** The line's name with its choices ("Golf shirt — L / Navy"). */
    productName: line(400),
    sku: line(64).optional(),
    stock: z.int().min(0),
    lowStockAt: z.int().min(0),
  }),
  /** To a customer who asked: the sold-out variant is back (sent once; the request is then deleted). */
  back_in_stock: z.object({
    customerName,
    productId: z.uuid(),
    productName: line(400),
  }),
  /** Local modes: a password reset link's token (issue 34); the link is built from the shop's address. */
  password_reset: z.object({
    customerName,
    token: accountToken,
  }),
  /** Local modes: to the new address, the link that confirms an e-mail change. */
  email_change_confirm: z.object({
    customerName,
    newEmail: email,
    token: accountToken,
  }),
  /** To the old address: a change to `newEmail` was asked for. */
  email_change_notice: z.object({
    customerName,
    newEmail: email,
  }),
  /** To the customer, when a booking is moved or cancelled (by them or an admin), with its calendar file. */
  booking_changed: bookingNotice,
  /** To the customer, 24 hours before a booking (send_booking_reminders()). */
  booking_reminder: bookingNotice,
  /** To the shop: a customer asked for a quote (docs/quotes.md). */
  quote_requested: z.object({
    requestId: z.uuid(),
    customerName,
    customerEmail: email,
    description: line(5000),
    itemCount: z.int().min(0).max(50),
    fileCount: z.int().min(0).max(5),
    preferredDate: z.string().regex(/^\d{4}-\d{2}-\d{2}$/).optional(),
    company: line(120).optional(),
  }),
  /** To the customer: a quote (or a revision of it) was sent. */
  quote_sent: z.object({
    requestId: z.uuid(),
    customerName,
    number: z.string().regex(/^Q-\d{6,}$/),
    version: z.int().min(1),
    total: rands,
    validUntil: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  }),
  /** To the shop: the customer asked for a change to their quote. */
  quote_change_asked: z.object({
    requestId: z.uuid(),
    customerName,
    customerEmail: email,
    number: z.string().regex(/^Q-\d{6,}$/),
    version: z.int().min(1),
    message: line(2000),
  }),
  /** The owner's WhatsApp alert of a new order (docs/whatsapp.md); mailed to the shop only when WhatsApp could not deliver it. */
  new_order_alert: z.object({
    reference,
    customerName,
    total: rands,
    paymentMethod: paymentMethod,
    proofUploaded: z.boolean().default(false),
  }),
  /** The owner's WhatsApp alert of a new booking; mailed to the shop only when WhatsApp could not deliver it. */
  new_booking_alert: z.object({
    reference,
    customerName,
    service: line(500),
    startsAt: z.iso.datetime({ offset: true }),
  }),
} as const;

/** A template's name, as stored in the outbox. */
export type MailTemplate = keyof typeof mailDataSchemas;

/** Every template name. */
export const MAIL_TEMPLATES = Object.keys(mailDataSchemas) as MailTemplate[];

/** Whether a stored name is one of the templates (the outbox column is text). */
export function isMailTemplate(name: string): name is MailTemplate {
  return Object.hasOwn(mailDataSchemas, name);
}

/** A template's data as written (amounts may be numbers or decimal strings). */
export type MailDataInput<T extends MailTemplate> = z.input<(typeof mailDataSchemas)[T]>;
/** A template's data after validation, as its component receives it. */
export type MailData<T extends MailTemplate> = z.output<(typeof mailDataSchemas)[T]>;
