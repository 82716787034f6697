import { TRPCError } from "@trpc/server";
import { messages } from "@/lib/messages";
import type { TRPCContext } from "@/server/api/trpc";
import { violatesForeignKey } from "@/server/db/sql-errors";
import { findContactMessageSender, insertContactMessage, listContactMessages, markContactMessage } from "./contact-queries";
import type { ContactInput } from "./schemas";

type Ctx = Pick<TRPCContext, "db">;

/** Stores a message from the contact form (anyone may send) and confirms it to the sender. */
export async function sendMessage({ ctx, input }: { ctx: Ctx; input: ContactInput }) {
  try {
    await ctx.db.transaction((trx) => insertContactMessage(trx, input));
  } catch (error) {
    // A message names its signed-in sender's profile; that profile is gone when the account was
    // deleted (another tab) after this request's session was checked. Sent again, it goes as a visitor's.
    if (violatesForeignKey(error, "contact_messages_user_id_fkey")) {
      throw new TRPCError({ code: "UNAUTHORIZED", message: messages.contact.signedOut, cause: error });
    }
    throw error;
  }
  return { message: messages.contact.sent(input.name) };
}

export function listMessages({ ctx }: { ctx: Ctx }) {
  return ctx.db.transaction((trx) => listContactMessages(trx));
}

/** What the admins' notice of a new message shows: who sent it. */
export async function messageNotice({ ctx, input }: { ctx: Ctx; input: { id: string } }) {
  const found = await ctx.db.transaction((trx) => findContactMessageSender(trx, input.id));
  if (!found) throw new TRPCError({ code: "NOT_FOUND", message: messages.contact.messageGone });
  return found;
}

export async function markRead({ ctx, input }: { ctx: Ctx; input: { id: string; read: boolean } }) {
  const found = await ctx.db.transaction((trx) => markContactMessage(trx, input.id, input.read));
  if (!found) throw new TRPCError({ code: "NOT_FOUND", message: messages.contact.messageGone });
  return { ok: true };
}
