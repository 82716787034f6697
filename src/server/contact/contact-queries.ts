import type { Tx } from "@/server/db/as-caller";

/** Stores a contact-form message (RLS: anyone may insert, only admins read). */
export async function insertContactMessage(trx: Tx, input: { name: string; email: string; phone?: string; message: string }) {
  await trx
    .insertInto("contact_messages")
    .values({ name: input.name, email: input.email.toLowerCase(), phone: input.phone || null, message: input.message, read_at: null })
    .execute();
}

/** Every message, newest first (admins). */
export function listContactMessages(trx: Tx) {
  return trx
    .selectFrom("contact_messages")
    .select(["id", "name", "email", "phone", "message", "read_at", "created_at"])
    .orderBy("created_at", "desc")
    .limit(500)
    .execute();
}

/** Who sent a message, for the admins' notice of it (RLS: admins only); undefined if it is gone. */
export function findContactMessageSender(trx: Tx, id: string) {
  return trx.selectFrom("contact_messages").select(["id", "name"]).where("id", "=", id).executeTakeFirst();
}

/** Marks a message read or unread again; false if it no longer exists. */
export async function markContactMessage(trx: Tx, id: string, read: boolean): Promise<boolean> {
  const result = await trx.updateTable("contact_messages").set({ read_at: read ? new Date() : null }).where("id", "=", id).executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
