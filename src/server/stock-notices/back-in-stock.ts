import { TRPCError } from "@trpc/server";
import { messages } from "@/lib/messages";
import type { TRPCContext } from "@/server/api/trpc";
import { sqlState } from "@/server/db/sql-errors";
import { deleteBackInStockRequest, insertBackInStockRequest, requestedVariantIds } from "./stock-notice-queries";

type Ctx = Pick<TRPCContext, "db">;

/** "E-mail me when it is back": the caller's request for a sold-out variant, kept until its one mail. */
export async function askBackInStock({ ctx, input }: { ctx: Ctx; input: { variantId: string } }) {
  try {
    await ctx.db.transaction((trx) => insertBackInStockRequest(trx, input.variantId));
  } catch (error) {
    // RLS's check (42501): the variant is not sold out (any more), or is gone.
    if (sqlState(error) === "42501" || sqlState(error) === "23503") {
      throw new TRPCError({ code: "BAD_REQUEST", message: messages.stockNotices.notSoldOut, cause: error });
    }
    throw error;
  }
  return { message: messages.stockNotices.asked };
}

/** Takes the caller's request back. */
export async function withdrawBackInStock({ ctx, input }: { ctx: Ctx; input: { variantId: string } }) {
  const found = await ctx.db.transaction((trx) => deleteBackInStockRequest(trx, input.variantId));
  if (!found) throw new TRPCError({ code: "NOT_FOUND", message: messages.stockNotices.notAsked });
  return { message: messages.stockNotices.withdrawn };
}

/** Which of a page's variants the caller is waiting for. */
export function requestedBackInStock({ ctx, input }: { ctx: Ctx; input: { variantIds: string[] } }) {
  return ctx.db.transaction((trx) => requestedVariantIds(trx, input.variantIds));
}
