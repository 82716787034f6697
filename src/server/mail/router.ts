import { messages } from "@/lib/messages";
import { adminProcedure, createTRPCRouter } from "@/server/api/trpc";
import { outboxForAdmins } from "./outbox-page";

/** The mail outbox, for admins (RLS: admins read it; nobody writes it through the API). */
export const mailRouter = createTRPCRouter({
  outbox: adminProcedure.meta({ failure: messages.mail.loadFailed }).query(outboxForAdmins),
});
