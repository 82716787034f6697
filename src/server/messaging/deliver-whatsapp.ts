import type { Kysely } from "kysely";
import type { DB } from "@/server/db/schema";
import type { MailShop } from "@/server/mail/schemas";
import { consentedWhatsAppNumber, fallBackToMail, markWhatsAppSent, ownerAlertNumber, rerouteToMail, type OutboxRow } from "@/server/mail/outbox-queries";
import { MessagingSendError, type MessagingChannel } from "@/server/ports/messaging";
import { OWNER_ALERT_TEMPLATES, whatsappMessageFor } from "./templates";

export type WhatsAppOutcome = "sent" | "retry" | "failed" | "rerouted";

/**
 * Sends one WhatsApp row of the outbox (docs/whatsapp.md). The channel is chosen again here, at
 * send time: without WhatsApp, without a live consent now, or without a WhatsApp form of the
 * notice, the row goes by e-mail instead ("rerouted"). The number is the consent's, never the
 * row's; for the owner's own alerts, the one in Shop settings while the alerts are on. The row's id goes with the message as its idempotency key (biz_opaque_callback_data),
 * so a send repeated after a crash is recognisable. A refusal of the message itself, or the last
 * try, fails it for good and writes one e-mail in its place.
 */
export async function deliverWhatsApp(
  deps: { db: Kysely<DB>; whatsapp?: MessagingChannel },
  row: OutboxRow,
  shop: MailShop,
  markFailed: (error: unknown, giveUp: boolean) => Promise<boolean>,
): Promise<WhatsAppOutcome> {
  const stopReply = row.template === "whatsapp_stopped";
  const ownerAlert = OWNER_ALERT_TEMPLATES.has(row.template);
  const message = whatsappMessageFor(row, shop);
  const to = stopReply ? row.recipient : ownerAlert ? await ownerAlertNumber(deps.db) : await consentedWhatsAppNumber(deps.db, row.user_id);
  if (!deps.whatsapp || !message || !to) {
    // A STOP's confirmation (or an alert for a shop with no notice address) has no e-mail to go to: without WhatsApp it is given up on.
    if (stopReply || !row.recipient.includes("@")) {
      await markFailed(new Error("WhatsApp is not configured"), true);
      return "failed";
    }
    await rerouteToMail(deps.db, row.id);
    return "rerouted";
  }
  try {
    const { messageId } =
      message.kind === "text"
        ? await deps.whatsapp.sendText({ to, text: message.text, idempotencyKey: row.id })
        : await deps.whatsapp.sendTemplate({ to, name: message.name, language: message.language, parameters: message.parameters, idempotencyKey: row.id });
    await markWhatsAppSent(deps.db, row.id, messageId);
    return "sent";
  } catch (error) {
    const permanent = error instanceof MessagingSendError && error.permanent;
    const failed = await markFailed(error, permanent);
    if (!failed) return "retry";
    await fallBackToMail(deps.db, row.id);
    return "failed";
  }
}
