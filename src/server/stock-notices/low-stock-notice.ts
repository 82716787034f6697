import { TRPCError } from "@trpc/server";
import { messages } from "@/lib/messages";
import type { TRPCContext } from "@/server/api/trpc";
import { findLowStockNotice } from "./stock-notice-queries";

type Ctx = Pick<TRPCContext, "db">;

/** Admins: what a low-stock notice says (the live event carries its id only). */
export async function lowStockNotice({ ctx, input }: { ctx: Ctx; input: { id: string } }) {
  const found = await ctx.db.transaction((trx) => findLowStockNotice(trx, input.id));
  if (!found) throw new TRPCError({ code: "NOT_FOUND", message: messages.stockNotices.noticeGone });
  return found;
}
