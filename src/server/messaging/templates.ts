import { formatDay, formatSlot } from "@/lib/days";
import { messages } from "@/lib/messages";
import { formatRand } from "@/lib/money";
import { orderPath, quotePath } from "@/lib/order-paths";
import { mailDataSchemas, mailShopSchema, type MailShop } from "@/server/mail/schemas";

/**
 * The WhatsApp templates (docs/whatsapp.md), declared once: each one's name, language, category,
 * what its body parameters are, and its English text exactly as the owner submits it to Meta for
 * approval (WhatsApp Manager > Message templates). A template's words change only here and at
 * Meta, together: WhatsApp sends only the approved words, filling in {{1}}, {{2}}, ….
 */
export const WHATSAPP_TEMPLATES = {
  order_received: {
    name: "order_received",
    language: "en",
    category: "UTILITY",
    parameters: ["the customer's name", "the order's reference", "the order's total", "how to pay"],
    text: "Hi {{1}}, thank you for your order {{2}} of {{3}}. {{4}} Reply STOP to get your order updates by e-mail instead.",
  },
  payment_confirmed: {
    name: "payment_confirmed",
    language: "en",
    category: "UTILITY",
    parameters: ["the customer's name", "the amount paid", "the order's reference", "what happens next: its delivery or collection day, or a thank-you"],
    text: "Hi {{1}}, we have received your payment of {{2}} for order {{3}}. {{4}} Reply STOP to get your order updates by e-mail instead.",
  },
  order_fulfilment: {
    name: "order_fulfilment",
    language: "en",
    category: "UTILITY",
    parameters: ["the customer's name", "the order's reference", "“out for delivery” or “ready for collection”", "the day"],
    text: "Hi {{1}}, your order {{2}} will be {{3}} on {{4}}. Reply STOP to get your order updates by e-mail instead.",
  },
  order_status_changed: {
    name: "order_status_changed",
    language: "en",
    category: "UTILITY",
    parameters: ["the customer's name", "the order's reference", "its new status"],
    text: "Hi {{1}}, your order {{2}} is now: {{3}}. Reply STOP to get your order updates by e-mail instead.",
  },
  booking_reminder: {
    name: "booking_reminder",
    language: "en",
    category: "UTILITY",
    parameters: ["the customer's name", "the service booked", "its day and time (South African)", "the order's reference"],
    text: "Hi {{1}}, a reminder of your booking: {{2}} on {{3}} (South African time), order {{4}}. Reply STOP to get your order updates by e-mail instead.",
  },
  quote_sent: {
    name: "quote_sent",
    language: "en",
    category: "UTILITY",
    parameters: ["the customer's name", "the quote's number", "its total", "the last day it can be accepted", "the quote's page"],
    text: "Hi {{1}}, your quote {{2}} of {{3}} is ready. You can accept it, ask for a change or decline it until {{4}}: {{5}} Reply STOP to get your order updates by e-mail instead.",
  },
  // The owner's own alerts (Shop settings > WhatsApp): to the owner's number, never a customer's.
  new_order_alert: {
    name: "new_order_alert",
    language: "en",
    category: "UTILITY",
    parameters: ["the order's reference", "the customer's name", "the order's total", "how it is paid"],
    text: "New order {{1}} from {{2}}: {{3}}, {{4}}. It is waiting for you in Order Management.",
  },
  new_booking_alert: {
    name: "new_booking_alert",
    language: "en",
    category: "UTILITY",
    parameters: ["the service booked", "its day and time (South African)", "the customer's name", "the order's reference"],
    text: "New booking: {{1}} on {{2}} (South African time) for {{3}}, order {{4}}. It is in your bookings.",
  },
} as const;

export type WhatsAppTemplateKey = keyof typeof WHATSAPP_TEMPLATES;

/** What the worker sends for one outbox row on WhatsApp. */
export type WhatsAppMessage = { kind: "template"; template: WhatsAppTemplateKey; name: string; language: string; parameters: string[] } | { kind: "text"; text: string };

function template(key: WhatsAppTemplateKey, parameters: string[]): WhatsAppMessage {
  const { name, language } = WHATSAPP_TEMPLATES[key];
  // WhatsApp refuses a parameter with new lines, tabs or more than four spaces in a row.
  return { kind: "template", template: key, name, language, parameters: parameters.map((value) => value.replace(/\s+/g, " ").trim().slice(0, 500)) };
}

/**
 * The WhatsApp form of an outbox row (its mail template and data), or null when it has none (it
 * then goes by e-mail): a payment that arrived for an order no longer payable, for example, needs
 * the e-mail's explanation.
 */
export function whatsappMessageFor(row: { template: string; data: unknown }, shop: MailShop): WhatsAppMessage | null {
  const siteUrl = mailShopSchema.shape.siteUrl.parse(shop.siteUrl);
  switch (row.template) {
    case "whatsapp_stopped":
      return { kind: "text", text: messages.whatsapp.stopConfirmed };
    case "order_received": {
      const data = mailDataSchemas.order_received.safeParse(row.data);
      if (!data.success) return null;
      const { customerName, reference, total, paymentMethod, proofUploaded } = data.data;
      const howToPay =
        paymentMethod === "payfast"
          ? messages.whatsapp.payOnline(`${siteUrl}${orderPath(reference)}`)
          : proofUploaded
            ? messages.whatsapp.proofReceived
            : messages.whatsapp.payByTransfer(reference, `${siteUrl}${orderPath(reference)}`);
      return template("order_received", [customerName, reference, formatRand(total), howToPay]);
    }
    case "payment_received": {
      const data = mailDataSchemas.payment_received.safeParse(row.data);
      if (!data.success || data.data.refundDue) return null;
      const { customerName, amount, reference, fulfilment } = data.data;
      return template("payment_confirmed", [customerName, formatRand(amount), reference, nextStep(fulfilment)]);
    }
    case "status_changed": {
      const data = mailDataSchemas.status_changed.safeParse(row.data);
      if (!data.success) return null;
      const { customerName, reference, status, fulfilment, paidAmount } = data.data;
      // An admin marked the bank transfer received: the customer hears "payment confirmed", with the day.
      if (paidAmount !== undefined) return template("payment_confirmed", [customerName, formatRand(paidAmount), reference, nextStep(fulfilment)]);
      if (status === "pending_delivery" && fulfilment) {
        return template("order_fulfilment", [customerName, reference, messages.whatsapp.fulfilment[fulfilment.method], formatDay(fulfilment.day)]);
      }
      return template("order_status_changed", [customerName, reference, messages.orderStatus[status]]);
    }
    // 24 hours before a booking. A moved or cancelled booking's notice goes by e-mail: it carries the calendar file.
    case "booking_reminder": {
      const data = mailDataSchemas.booking_reminder.safeParse(row.data);
      if (!data.success) return null;
      return template("booking_reminder", [data.data.customerName, data.data.name, formatSlot(data.data.startsAt), data.data.reference]);
    }
    case "quote_sent": {
      const data = mailDataSchemas.quote_sent.safeParse(row.data);
      if (!data.success) return null;
      const { customerName, number, total, validUntil, requestId } = data.data;
      return template("quote_sent", [customerName, number, formatRand(total), formatDay(validUntil), `${siteUrl}${quotePath(requestId)}`]);
    }
    case "order_cancelled_unpaid": {
      const data = mailDataSchemas.order_cancelled_unpaid.safeParse(row.data);
      if (!data.success) return null;
      return template("order_status_changed", [data.data.customerName, data.data.reference, messages.whatsapp.cancelledUnpaid(data.data.days)]);
    }
    case "new_order_alert": {
      const data = mailDataSchemas.new_order_alert.safeParse(row.data);
      if (!data.success) return null;
      const { reference, customerName, total, paymentMethod, proofUploaded } = data.data;
      return template("new_order_alert", [reference, customerName, formatRand(total), messages.whatsapp.howPaid(paymentMethod, proofUploaded)]);
    }
    case "new_booking_alert": {
      const data = mailDataSchemas.new_booking_alert.safeParse(row.data);
      if (!data.success) return null;
      return template("new_booking_alert", [data.data.service, formatSlot(data.data.startsAt), data.data.customerName, data.data.reference]);
    }
    default:
      return null;
  }
}

/** The owner's own alerts: sent to the number in Shop settings, never to a customer's consent. */
export const OWNER_ALERT_TEMPLATES: ReadonlySet<string> = new Set(["new_order_alert", "new_booking_alert"]);

/** After a payment: the order's delivery or collection day, or a thank-you when it has none (a booking, or an order from before). */
function nextStep(fulfilment: { method: "delivery" | "collection"; day: string } | undefined): string {
  return fulfilment ? messages.whatsapp.nextStep[fulfilment.method](formatDay(fulfilment.day)) : messages.whatsapp.thankYou;
}

/** A template's text with its parameters filled in, as the customer reads it (the Outbox page). */
export function whatsappText(message: WhatsAppMessage): string {
  if (message.kind === "text") return message.text;
  return WHATSAPP_TEMPLATES[message.template].text.replace(/\{\{(\d+)\}\}/g, (_, n: string) => message.parameters[Number(n) - 1] ?? "");
}
