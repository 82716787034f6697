import { messages } from "@/lib/messages";
import { adminProcedure, createTRPCRouter } from "@/server/api/trpc";
import { orderMessagesInput } from "@/server/orders/schemas";
import { orderMessagesForAdmins, outboxForAdmins } from "./outbox-page";

/** The mail outbox, for admins (RLS: admins read it; nobody writes it through the API). */
export const mailRouter = createTRPCRouter({
  outbox: adminProcedure.meta({ failure: messages.mail.loadFailed }).query(outboxForAdmins),
  /** One order's messages to its customer, each with its channel and delivery (Order Management). */
  orderMessages: adminProcedure.meta({ failure: messages.mail.loadFailed }).input(orderMessagesInput).query(orderMessagesForAdmins),
});
