import { messages } from "@/lib/messages";
import { byClientAddress } from "@/server/api/middlewares/caller-keys";
import { rateLimited } from "@/server/api/middlewares/rate-limit";
import { adminProcedure, createTRPCRouter, publicProcedure } from "@/server/api/trpc";
import { listMessages, markRead, messageNotice, sendMessage } from "./contact-messages";
import { contactInput, markReadInput, messageNoticeInput } from "./schemas";

export const contactRouter = createTRPCRouter({
  /** Anyone may send; limited per client address. */
  send: publicProcedure.meta({ failure: messages.contact.failed }).input(contactInput).use(rateLimited((limits) => limits.contact, byClientAddress)).mutation(sendMessage),
  /** Admins: every message, newest first. */
  list: adminProcedure.query(listMessages),
  markRead: adminProcedure.input(markReadInput).mutation(markRead),
  /** Admins: who sent one message, for the live notice of it (live events carry ids only). */
  notice: adminProcedure.input(messageNoticeInput).query(messageNotice),
});
