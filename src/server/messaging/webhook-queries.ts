import { sql } from "kysely";
import type { Tx } from "@/server/db/as-caller";
import type { DeliveryStatus } from "@/lib/statuses";

/** A delivery status against its outbox row (record_whatsapp_status(), service role only). */
export async function recordStatus(trx: Tx, status: { messageId: string; outboxId: string | null; status: DeliveryStatus; at: Date; error: string | null }) {
  await sql`select public.record_whatsapp_status(${status.messageId}, ${status.outboxId}::uuid, ${status.status}, ${status.at}::timestamptz, ${status.error})`.execute(trx);
}

/** STOP from a number: its WhatsApp consents withdrawn, one confirmation written (whatsapp_stop()). */
export async function stopNumber(trx: Tx, phone: string): Promise<number> {
  const { rows } = await sql<{ withdrawn: number }>`select public.whatsapp_stop(${phone}) as withdrawn`.execute(trx);
  return Number(rows[0]?.withdrawn ?? 0);
}

/** Any other inbound message: a contact message for the admins, once per message id. */
export async function recordInbound(trx: Tx, message: { id: string; phone: string; name: string | null; text: string }) {
  await sql`select public.whatsapp_inbound(${message.id}, ${message.phone}, ${message.name}, ${message.text})`.execute(trx);
}
