import type { Kysely } from "kysely";
import type { DB } from "@/server/db/schema";
import { MailSendError, type MailTransport } from "@/server/ports/mail";
import type { MessagingChannel } from "@/server/ports/messaging";
import { deliverWhatsApp } from "@/server/messaging/deliver-whatsapp";
import { outboxMessageId } from "./message-id";
import { claimDue, markSent, recordFailedSend, type OutboxRow } from "./outbox-queries";
import { MailDataError, renderMail, type RenderedMail } from "./render";
import { isMailTemplate, REDACTED_TOKEN, type MailShop } from "./schemas";

/** A row is given up on after this many failed sends, and shown to admins as failed. */
export const MAX_ATTEMPTS = 10;
/** While a worker sends a row it claimed, no other worker takes it; after this, one may (a crash). */
export const CLAIM_MS = 5 * 60_000;
/** How many rows one worker takes at a time. */
export const BATCH = 20;

/** How long to wait before the next try after `attempts` failures: 30 s doubling, a day at most. */
export function backoffMs(attempts: number): number {
  return Math.min(30_000 * 2 ** Math.max(0, attempts - 1), 24 * 3600_000);
}

/** Counts a failed send; true when the row is now given up on (failed). */
async function markFailed(db: Kysely<DB>, row: OutboxRow, error: unknown, giveUp: boolean): Promise<boolean> {
  const attempts = row.attempts + 1;
  const failed = giveUp || attempts >= MAX_ATTEMPTS;
  await recordFailedSend(db, row.id, {
    attempts,
    lastError: (error instanceof Error ? error.message : String(error)).slice(0, 2000),
    failed,
    nextAttemptAt: new Date(Date.now() + backoffMs(attempts)),
  });
  return failed;
}

export interface DeliveryDeps {
  /** The server's own connection: the worker is a server task, not a request (docs/architecture.md#run-modes-and-the-one-data-path). */
  db: Kysely<DB>;
  transport: MailTransport;
  /** WhatsApp (docs/whatsapp.md) when configured; without it, WhatsApp rows go by e-mail. */
  whatsapp?: MessagingChannel;
  /** The shop's details for the templates (name, links, bank account), read when sending. */
  shop: () => Promise<MailShop>;
}

/**
 * A row as anyone but its recipient may see it: a password reset or e-mail change link's token
 * replaced (the admins' Outbox page, the development log), as the link is the account holder's alone.
 */
export function withoutToken<T extends { data: unknown }>(row: T): T {
  const data = row.data;
  if (data && typeof data === "object" && "token" in data) return { ...row, data: { ...data, token: REDACTED_TOKEN } };
  return row;
}

/** Renders a row's mail with the shop's details (also what the admins' Outbox page shows). */
export async function renderRow(row: Pick<OutboxRow, "template" | "data">, shop: MailShop): Promise<RenderedMail> {
  if (!isMailTemplate(row.template)) throw new MailDataError(row.template, ["unknown template"]);
  return renderMail(row.template, row.data, shop);
}

export interface DeliveryReport {
  sent: number;
  retrying: number;
  failed: number;
}

/**
 * One round of delivery: claims the due rows, sends each and marks it. A crash between the
 * server accepting a mail and the row being marked sends that mail again after CLAIM_MS (at
 * least once, never zero times); its Message-ID is the row's, so the recipient sees one mail.
 */
export async function deliverDue(deps: DeliveryDeps, limit = BATCH): Promise<DeliveryReport & { claimed: number; more: boolean }> {
  // `more`: this round wrote new due rows (a WhatsApp message's e-mail fallback).
  const report = { sent: 0, retrying: 0, failed: 0, claimed: 0, more: false };
  // Without SMTP but with WhatsApp, only WhatsApp rows are taken: mails stay for the Outbox page.
  const mailOn = deps.transport.kind !== "none" || !deps.whatsapp;
  const rows = await claimDue(deps.db, limit, CLAIM_MS, mailOn ? ["email", "whatsapp"] : ["whatsapp"]);
  report.claimed = rows.length;
  if (rows.length === 0) return report;
  const shop = await deps.shop();
  for (const row of rows) {
    if (row.channel === "whatsapp") {
      const outcome = await deliverWhatsApp(deps, row, shop, (error, giveUp) => markFailed(deps.db, row, error, giveUp));
      if (outcome === "sent") report.sent++;
      else if (outcome === "failed") {
        report.failed++;
        report.more = mailOn;
      }
      else if (outcome === "retry") report.retrying++;
      // Rerouted: it goes on as a mail now if mails are sent, else it waits for the Outbox page.
      if (outcome !== "rerouted" || !mailOn) continue;
    }
    let mail: RenderedMail;
    try {
      mail = await renderRow(row, shop);
    } catch (error) {
      // Data no template can render will not render next time either.
      await markFailed(deps.db, row, error, true);
      report.failed++;
      continue;
    }
    try {
      await deps.transport.send({
        messageId: outboxMessageId(row.id, shop.siteUrl),
        from: `"${shop.name.replace(/["\\]/g, "")}" <${shop.email}>`,
        to: row.recipient,
        replyTo: mail.replyTo,
        subject: mail.subject,
        html: mail.html,
        text: mail.text,
        attachments: mail.attachments,
      });
    } catch (error) {
      // A 5xx refusal of this mail (no such mailbox) is final; the server being away is not.
      const permanent = error instanceof MailSendError && error.permanent;
      await markFailed(deps.db, row, error, permanent);
      if (permanent || row.attempts + 1 >= MAX_ATTEMPTS) report.failed++;
      else report.retrying++;
      continue;
    }
    await markSent(deps.db, row.id);
    report.sent++;
  }
  return report;
}

/** Delivers until nothing is due (the serverless `npm run mail:send` and the cron route). */
export async function drainOutbox(deps: DeliveryDeps): Promise<DeliveryReport> {
  const total = { sent: 0, retrying: 0, failed: 0 };
  for (let round = 0; round < 100; round++) {
    const { claimed, more, ...report } = await deliverDue(deps);
    total.sent += report.sent;
    total.retrying += report.retrying;
    total.failed += report.failed;
    if (claimed < BATCH && !more) break;
  }
  return total;
}

export type OutboxStatus = "queued" | "retrying" | "sent" | "failed";

/** A row's status in words for the Outbox page. */
export function outboxStatus(row: { sent_at: Date | null; failed_at: Date | null; attempts: number }): OutboxStatus {
  if (row.sent_at) return "sent";
  if (row.failed_at) return "failed";
  return row.attempts > 0 ? "retrying" : "queued";
}
