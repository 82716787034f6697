import type { ReactElement } from "react";
import { render, toPlainText } from "@react-email/render";
import type { z } from "@/lib/zod";
import { mailDataSchemas, mailShopSchema, type MailData, type MailDataInput, type MailShop, type MailTemplate, type ParsedMailShop } from "./schemas";
import { AccountDeletedMail, accountDeletedSubject } from "./templates/account-deleted";
import { BookingChangedMail, bookingChangedSubject, BookingReminderMail, bookingReminderSubject } from "./templates/booking-notices";
import {
  EmailChangeConfirmMail,
  emailChangeConfirmSubject,
  EmailChangeNoticeMail,
  emailChangeNoticeSubject,
  PasswordResetMail,
  passwordResetSubject,
} from "./templates/account-links";
import { ContactMessageMail, contactMessageSubject } from "./templates/contact-message";
import { NewOrderMail, newOrderSubject } from "./templates/new-order";
import { NewBookingAlertMail, newBookingAlertSubject, NewOrderAlertMail, newOrderAlertSubject } from "./templates/owner-alerts";
import { OrderCancelledUnpaidMail, orderCancelledUnpaidSubject } from "./templates/order-cancelled-unpaid";
import { OrderReceivedMail, orderReceivedSubject } from "./templates/order-received";
import { ITEMS_TABLE_CLASS } from "./templates/layout";
import { bookingChangeCalendar, bookingsCalendar, type MailAttachment } from "@/server/bookings/calendar";
import { PaymentNoticeMail, paymentNoticeSubject, PaymentReceivedMail, paymentReceivedSubject } from "./templates/payment-received";
import { QuoteChangeAskedMail, quoteChangeAskedSubject, QuoteRequestedMail, quoteRequestedSubject, QuoteSentMail, quoteSentSubject } from "./templates/quotes";
import { StatusChangedMail, statusChangedSubject } from "./templates/status-changed";
import { BackInStockMail, backInStockSubject, LowStockMail, lowStockSubject } from "./templates/stock-notices";

/** A mail ready for the transport, but for its addresses (the outbox row knows the recipient). */
export interface RenderedMail {
  subject: string;
  html: string;
  text: string;
  /** Where replies go when that is not the sender: the visitor who wrote a contact message. */
  replyTo?: string;
  /** Files with it: an order's bookings as a calendar file (docs/bookings.md). */
  attachments?: MailAttachment[];
}

/**
 * Data (or shop settings) a template cannot be rendered from. The message names the fields and
 * the problems, never their values, which are personal data.
 */
export class MailDataError extends Error {
  constructor(
    readonly template: string,
    readonly issues: readonly string[],
  ) {
    super(`Cannot render mail '${template}': ${issues.join("; ")}`);
    this.name = "MailDataError";
  }
}

interface TemplateDefinition<T extends MailTemplate> {
  schema: z.ZodType<MailData<T>, MailDataInput<T>>;
  subject: (data: MailData<T>, shop: ParsedMailShop) => string;
  Component: (props: { data: MailData<T>; shop: ParsedMailShop }) => ReactElement;
  replyTo?: (data: MailData<T>) => string;
  attachments?: (data: MailData<T>, shop: ParsedMailShop) => MailAttachment[];
}

const templates: { [T in MailTemplate]: TemplateDefinition<T> } = {
  order_received: { schema: mailDataSchemas.order_received, subject: orderReceivedSubject, Component: OrderReceivedMail, attachments: orderBookings },
  status_changed: { schema: mailDataSchemas.status_changed, subject: statusChangedSubject, Component: StatusChangedMail },
  order_cancelled_unpaid: {
    schema: mailDataSchemas.order_cancelled_unpaid,
    subject: orderCancelledUnpaidSubject,
    Component: OrderCancelledUnpaidMail,
  },
  new_order: { schema: mailDataSchemas.new_order, subject: newOrderSubject, Component: NewOrderMail },
  contact_message: {
    schema: mailDataSchemas.contact_message,
    subject: contactMessageSubject,
    Component: ContactMessageMail,
    // The bare address: the sender's name is theirs to choose and has no business in a header.
    replyTo: (data) => data.email,
  },
  account_deleted: { schema: mailDataSchemas.account_deleted, subject: accountDeletedSubject, Component: AccountDeletedMail },
  payment_received: { schema: mailDataSchemas.payment_received, subject: paymentReceivedSubject, Component: PaymentReceivedMail },
  payment_notice: { schema: mailDataSchemas.payment_notice, subject: paymentNoticeSubject, Component: PaymentNoticeMail },
  low_stock: { schema: mailDataSchemas.low_stock, subject: lowStockSubject, Component: LowStockMail },
  back_in_stock: { schema: mailDataSchemas.back_in_stock, subject: backInStockSubject, Component: BackInStockMail },
  password_reset: { schema: mailDataSchemas.password_reset, subject: passwordResetSubject, Component: PasswordResetMail },
  email_change_confirm: { schema: mailDataSchemas.email_change_confirm, subject: emailChangeConfirmSubject, Component: EmailChangeConfirmMail },
  email_change_notice: { schema: mailDataSchemas.email_change_notice, subject: emailChangeNoticeSubject, Component: EmailChangeNoticeMail },
  booking_changed: {
    schema: mailDataSchemas.booking_changed,
    subject: bookingChangedSubject,
    Component: BookingChangedMail,
    attachments: (data, shop) => [bookingChangeCalendar(data, shop)],
  },
  booking_reminder: { schema: mailDataSchemas.booking_reminder, subject: bookingReminderSubject, Component: BookingReminderMail },
  quote_requested: { schema: mailDataSchemas.quote_requested, subject: quoteRequestedSubject, Component: QuoteRequestedMail },
  quote_sent: { schema: mailDataSchemas.quote_sent, subject: quoteSentSubject, Component: QuoteSentMail },
  quote_change_asked: { schema: mailDataSchemas.quote_change_asked, subject: quoteChangeAskedSubject, Component: QuoteChangeAskedMail },
  new_order_alert: { schema: mailDataSchemas.new_order_alert, subject: newOrderAlertSubject, Component: NewOrderAlertMail },
  new_booking_alert: { schema: mailDataSchemas.new_booking_alert, subject: newBookingAlertSubject, Component: NewBookingAlertMail },
};

/** html-to-text's defaults shout headings in capitals; a customer's name must stay as they wrote it. */
const plainTextOptions = {
  selectors: [
    ...["h1", "h2", "h3"].map((selector) => ({ selector, options: { uppercase: false } })),
    // The items as columns, one line per item, rather than one line per cell.
    { selector: `table.${ITEMS_TABLE_CLASS}`, format: "dataTable", options: { uppercaseHeaderCells: false, maxColumnWidth: 40 } },
  ],
};

/**
 * Renders one of the mail templates to a subject, HTML and a plain-text alternative. `data` is
 * the outbox row's JSON, validated by the template's schema; `shop` is the shop settings.
 * Rejects with MailDataError when either does not fit.
 */
export async function renderMail(template: MailTemplate, data: unknown, shop: MailShop): Promise<RenderedMail> {
  return renderTemplate(template, data, shop);
}

async function renderTemplate<T extends MailTemplate>(template: T, data: unknown, shop: MailShop): Promise<RenderedMail> {
  const definition: TemplateDefinition<T> | undefined = Object.hasOwn(templates, template) ? templates[template] : undefined;
  if (!definition) throw new MailDataError(String(template), ["unknown template"]);
  const parsedShop = mailShopSchema.safeParse(shop);
  if (!parsedShop.success) throw new MailDataError(template, describeIssues(parsedShop.error, "shop"));
  const parsedData = definition.schema.safeParse(data);
  if (!parsedData.success) throw new MailDataError(template, describeIssues(parsedData.error, "data"));

  const { Component } = definition;
  const html = await render(<Component data={parsedData.data} shop={parsedShop.data} />);
  const rendered: RenderedMail = {
    subject: headerText(definition.subject(parsedData.data, parsedShop.data)),
    html,
    text: toPlainText(html, plainTextOptions).trim() + "\n",
  };
  if (definition.replyTo) rendered.replyTo = definition.replyTo(parsedData.data);
  const attachments = definition.attachments?.(parsedData.data, parsedShop.data) ?? [];
  if (attachments.length > 0) rendered.attachments = attachments;
  return rendered;
}

/** An order's booked times as one calendar file; none when it books nothing. */
function orderBookings(data: MailData<"order_received">, shop: ParsedMailShop): MailAttachment[] {
  const booked = data.items.flatMap((item) =>
    item.startsAt && item.endsAt ? [{ name: item.name, startsAt: item.startsAt, endsAt: item.endsAt, bookingId: item.bookingId }] : [],
  );
  return booked.length > 0 ? [bookingsCalendar(data.reference, booked, shop)] : [];
}

/** Field paths and messages of a failed parse, without the values. */
function describeIssues(error: z.ZodError, root: string): string[] {
  return error.issues.map((issue) => `${[root, ...issue.path.map(String)].join(".")}: ${issue.message}`);
}

/**
 * A subject is a header: a line break in a customer's name must not end it (nodemailer encodes
 * headers, but a folded subject still reads wrong), so control characters become spaces.
 */
function headerText(value: string): string {
  return value.replace(/[\u0000-\u001f\u007f]+/g, " ").replace(/\s{2,}/g, " ").trim();
}
