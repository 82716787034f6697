import { adminProcedure, byClientAddress, createTRPCRouter, publicProcedure, rateLimited } from "@/server/api/trpc";
import { listMessages, markRead, sendMessage } from "./contact-messages";
import { contactInput, markReadInput } from "./schemas";

export const contactRouter = createTRPCRouter({
  /** Anyone may send; limited per client address. */
  send: publicProcedure.input(contactInput).use(rateLimited((limits) => limits.contact, byClientAddress)).mutation(sendMessage),
  /** Admins: every message, newest first. */
  list: adminProcedure.query(listMessages),
  markRead: adminProcedure.input(markReadInput).mutation(markRead),
});
