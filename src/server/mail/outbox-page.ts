import { messages } from "@/lib/messages";
import type { TRPCContext } from "@/server/api/trpc";
import { outboxStatus, renderRow, withoutToken } from "./outbox";
import { listOrderMessages, listOutbox } from "./outbox-queries";
import type { OrderMessagesInput } from "@/server/orders/schemas";
import type { MailShop } from "./schemas";
import { mailShopFrom } from "./shop";
import { whatsappMessageFor, whatsappText } from "@/server/messaging/templates";

/**
 * The Outbox page's content: the newest mails with their status, attempts and last error, and
 * each one rendered as it was or will be sent (subject and plain text), so an admin sees what a
 * customer was told even when no SMTP server is configured.
 */
export async function outboxForAdmins({ ctx }: { ctx: Pick<TRPCContext, "db" | "settings" | "mailIsSent"> }) {
  const shop = mailShopFrom(await ctx.settings.published());
  const listed = await ctx.db.transaction((trx) => listOutbox(trx));
  const mails = await Promise.all(listed.rows.map((row) => shownRow(row, shop)));
  return { mails, counts: listed.counts, sending: ctx.mailIsSent };
}

/** What Order Management shows of one order's messages to its customer: each one's channel, delivery and text. */
export async function orderMessagesForAdmins({ ctx, input }: { ctx: Pick<TRPCContext, "db" | "settings">; input: OrderMessagesInput }) {
  const shop = mailShopFrom(await ctx.settings.published());
  const rows = await ctx.db.transaction((trx) => listOrderMessages(trx, input.id));
  return Promise.all(rows.map((row) => shownRow(row, shop)));
}

type ListedRow = Awaited<ReturnType<typeof listOrderMessages>>[number];

async function shownRow(row: ListedRow, shop: MailShop) {
  // A WhatsApp row shows the message with its parameters filled in, as the customer reads it.
  const whatsapp = row.channel === "whatsapp" ? whatsappMessageFor(row, shop) : null;
  // A reset or e-mail change link is its account holder's alone: admins see the mail without it.
  const rendered = whatsapp ? { subject: messages.mail.whatsappSubject, text: whatsappText(whatsapp) } : await renderRow(withoutToken(row), shop).catch(() => null);
  return {
    id: row.id,
    recipient: row.recipient,
    template: row.template,
    status: outboxStatus(row),
    attempts: row.attempts,
    createdAt: new Date(row.created_at),
    sentAt: row.sent_at ? new Date(row.sent_at) : null,
    nextAttemptAt: new Date(row.next_attempt_at),
    lastError: row.last_error,
    channel: row.channel,
    deliveryStatus: row.delivery_status,
    fallback: row.fallback_of !== null,
    subject: rendered?.subject ?? messages.mail.unrenderable,
    text: rendered?.text ?? "",
  };
}
