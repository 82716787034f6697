import { messages } from "@/lib/messages";
import { adminProcedure, createTRPCRouter, signedInProcedure } from "@/server/api/trpc";
import { askBackInStock, requestedBackInStock, withdrawBackInStock } from "./back-in-stock";
import { lowStockNotice } from "./low-stock-notice";
import { lowStockNoticeInput, requestedInput, variantIdInput } from "./schemas";

/** Back-in-stock requests (the signed-in caller's own) and the admins' low-stock notices. */
export const stockNoticesRouter = createTRPCRouter({
  /** "E-mail me when it is back" on a sold-out variant. */
  ask: signedInProcedure.meta({ failure: messages.stockNotices.askFailed }).input(variantIdInput).mutation(askBackInStock),
  withdraw: signedInProcedure.meta({ failure: messages.stockNotices.withdrawFailed }).input(variantIdInput).mutation(withdrawBackInStock),
  /** Which of these variants the caller is waiting for. */
  requested: signedInProcedure.meta({ failure: messages.stockNotices.loadFailed }).input(requestedInput).query(requestedBackInStock),
  /** Admins: what one low-stock crossing is about, for its live notice. */
  lowStockNotice: adminProcedure.meta({ failure: messages.stockNotices.loadFailed }).input(lowStockNoticeInput).query(lowStockNotice),
});
