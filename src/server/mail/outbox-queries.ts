import { sql, type Kysely } from "kysely";
import type { Tx } from "@/server/db/as-caller";
import type { DB } from "@/server/db/schema";
import type { MessageChannel } from "@/lib/statuses";

/** The mail outbox's SQL (outbox.ts delivers, worker.ts wakes it, outbox-page.ts shows it). */

export interface OutboxRow {
  id: string;
  recipient: string;
  template: string;
  data: unknown;
  attempts: number;
  channel: MessageChannel;
  user_id: string | null;
}

/**
 * Claims up to `limit` due rows: `for update skip locked`, so several server processes on one
 * database share the work, each row going to one of them; the claim moves the row's next
 * attempt `claimMs` ahead, so a worker that dies mid-send leaves it for another to take later.
 */
export async function claimDue(db: Kysely<DB>, limit: number, claimMs: number, channels: readonly MessageChannel[] = ["email", "whatsapp"]): Promise<OutboxRow[]> {
  const { rows } = await sql<OutboxRow>`
    update public.mail_outbox m
    set next_attempt_at = now() + ${`${claimMs} milliseconds`}::interval
    where m.id in (
      select id from public.mail_outbox
      where sent_at is null and failed_at is null and next_attempt_at <= now() and channel in (${sql.join(channels)})
      order by next_attempt_at, created_at
      limit ${limit}
      for update skip locked
    )
    returning m.id, m.recipient, m.template, m.data, m.attempts, m.channel, m.user_id`.execute(db);
  return rows;
}

export async function markSent(db: Kysely<DB>, id: string) {
  await db.updateTable("mail_outbox").set({ sent_at: new Date(), attempts: sql`attempts + 1`, last_error: null }).where("id", "=", id).execute();
}

/** A WhatsApp message accepted by the API: sent, with WhatsApp's id (a status may have written it already). */
export async function markWhatsAppSent(db: Kysely<DB>, id: string, messageId: string) {
  await db
    .updateTable("mail_outbox")
    .set({ sent_at: new Date(), attempts: sql`attempts + 1`, last_error: null, provider_message_id: sql`coalesce(provider_message_id, ${messageId})` })
    .where("id", "=", id)
    .execute();
}

/**
 * The number a customer's order notices may go to on WhatsApp now (a live consent), or null: read
 * at send time, so a STOP or an untick between the event and the send is honoured, and a row
 * written without consent (forged, replayed) is never sent there.
 */
export async function consentedWhatsAppNumber(db: Kysely<DB>, userId: string | null): Promise<string | null> {
  if (!userId) return null;
  const row = await db
    .selectFrom("messaging_consents")
    .select("phone")
    .where("user_id", "=", userId)
    .where("kind", "=", "whatsapp_updates")
    .where("withdrawn_at", "is", null)
    .orderBy("given_at", "desc")
    .executeTakeFirst();
  return row?.phone ?? null;
}

/**
 * The owner's number for their new-order and new-booking alerts now, or null (WhatsApp off in Shop
 * settings, the alerts switched off, no number): read at send time, as a customer's consent is.
 */
export async function ownerAlertNumber(db: Kysely<DB>): Promise<string | null> {
  const { rows } = await sql<{ phone: string | null }>`select public.whatsapp_owner_alert_number() as phone`.execute(db);
  return rows[0]?.phone ?? null;
}

/** A WhatsApp row that cannot go there (no consent now, no WhatsApp, no WhatsApp form): it goes by e-mail. */
export async function rerouteToMail(db: Kysely<DB>, id: string) {
  await db.updateTable("mail_outbox").set({ channel: "email", next_attempt_at: new Date() }).where("id", "=", id).execute();
}

/** A WhatsApp notice given up on: one e-mail instead (whatsapp_fall_back(), 075_messaging.sql). */
export async function fallBackToMail(db: Kysely<DB>, id: string) {
  await sql`select public.whatsapp_fall_back(${id}::uuid)`.execute(db);
}

/** A failed send: counted, its error kept, given up on (`failed`) or tried again at `nextAttemptAt`. */
export async function recordFailedSend(db: Kysely<DB>, id: string, result: { attempts: number; lastError: string; failed: boolean; nextAttemptAt: Date }) {
  await db
    .updateTable("mail_outbox")
    .set({ attempts: result.attempts, last_error: result.lastError, failed_at: result.failed ? new Date() : null, next_attempt_at: result.nextAttemptAt })
    .where("id", "=", id)
    .execute();
}

/** One row by id, to show a new mail in the development log. */
export async function findOutboxRow(db: Kysely<DB>, id: string) {
  return db.selectFrom("mail_outbox").select(["id", "recipient", "template", "data", "channel"]).where("id", "=", id).executeTakeFirst();
}

/** The outbox as admins see it (RLS: admins only), newest first, with each mail rendered. */
const LISTED = ["id", "recipient", "template", "data", "created_at", "attempts", "next_attempt_at", "sent_at", "failed_at", "last_error", "channel", "delivery_status", "fallback_of"] as const;

export async function listOutbox(trx: Tx, limit = 100) {
  const rows = await trx
    .selectFrom("mail_outbox")
    .select(LISTED)
    .orderBy("created_at", "desc")
    .orderBy("id")
    .limit(limit)
    .execute();
  const counts = await trx
    .selectFrom("mail_outbox")
    .select([
      sql<string>`count(*) filter (where sent_at is not null)`.as("sent"),
      sql<string>`count(*) filter (where failed_at is not null)`.as("failed"),
      sql<string>`count(*) filter (where sent_at is null and failed_at is null)`.as("waiting"),
    ])
    .executeTakeFirstOrThrow();
  return { rows, counts: { sent: Number(counts.sent), failed: Number(counts.failed), waiting: Number(counts.waiting) } };
}

/**
 * What one order's customer was sent about it, oldest first: the notices naming its reference
 * and addressed to its customer (the shop's own new-order mail is not theirs), on either
 * channel. RLS: admins only; `mail_outbox_reference_idx` finds them.
 */
export function listOrderMessages(trx: Tx, orderId: string) {
  return trx
    .selectFrom("mail_outbox")
    .innerJoin("orders", (join) => join.on("orders.id", "=", orderId).on(sql`mail_outbox.data ->> 'reference'`, "=", sql.ref("orders.reference")))
    .select(LISTED.map((column) => `mail_outbox.${column}` as const))
    .where(sql<boolean>`lower(mail_outbox.recipient) = lower(orders.customer_email)`)
    .orderBy("mail_outbox.created_at")
    .orderBy("mail_outbox.id")
    .limit(200)
    .execute();
}
