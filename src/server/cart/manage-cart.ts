import { TRPCError } from "@trpc/server";
import { messages } from "@/lib/messages";
import type { TRPCContext } from "@/server/api/trpc";
import type { Tx } from "@/server/db/as-caller";
import { cartCount, decrementLine, deleteLine, findLine, incrementLine, readCart, showPersonalisation, type Cart } from "./cart-queries";
import { cartRefusal } from "./refusals";
import type { LineRefInput } from "./schemas";

type Ctx = Pick<TRPCContext, "db">;

/** The caller's cart, as the cart page shows it: the lines with current prices and the SQL-computed total. */
export async function listCart({ ctx }: { ctx: Pick<TRPCContext, "db" | "storage"> }): Promise<Cart> {
  const cart = await ctx.db.transaction((trx) => readCart(trx, ctx.storage.publicUrl));
  // Files' links after the transaction: a signed URL (Supabase) is a network call.
  const lines = await Promise.all(cart.lines.map(async (line) => ({ ...line, personalisation: await showPersonalisation(ctx.storage, line.personalisation) })));
  return { ...cart, lines };
}

/** How many items the caller's cart holds (the navigation bar's badge). */
export function countCart({ ctx }: { ctx: Ctx }): Promise<number> {
  return ctx.db.transaction((trx) => cartCount(trx));
}

/** The caller's line; NOT_FOUND when the cart has none (gone in another tab, say). */
async function lineOf(trx: Tx, lineId: string) {
  const line = await findLine(trx, lineId);
  if (!line) throw new TRPCError({ code: "NOT_FOUND", message: messages.cart.lineGone });
  return line;
}

/**
 * +1 on a line already in the cart (increase_cart_line(), which checks in this order: the product
 * and variant still sold, not a booked time (one a line), the line's limit
 * (MAX_CART_LINE_QUANTITY), a counted variant's stock over all the caller's lines of it; place_order
 * checks the stock again, under its lock). An unavailable product cannot be added to a cart
 * (docs/architecture.md#decisions-on-the-spec), so neither can more of one already there: the
 * cart page offers no "+" on such a line, and the API says why.
 */
export function increaseLine({ ctx, input }: { ctx: Ctx; input: LineRefInput }) {
  return ctx.db.transaction(async (trx) => {
    const line = await lineOf(trx, input.lineId);
    try {
      await incrementLine(trx, input.lineId);
    } catch (error) {
      throw cartRefusal(error) ?? error;
    }
    return { message: messages.cart.quantityUpdated(line.name) };
  });
}

/** -1 on a line; at quantity 1 the line is removed (spec §4). */
export function decreaseLine({ ctx, input }: { ctx: Ctx; input: LineRefInput }) {
  return ctx.db.transaction(async (trx) => {
    const line = await lineOf(trx, input.lineId);
    if (line.quantity <= 1) {
      await deleteLine(trx, input.lineId);
      return { message: messages.cart.removed };
    }
    await decrementLine(trx, input.lineId);
    return { message: messages.cart.quantityUpdated(line.name) };
  });
}

/** Removes a line whatever its quantity. */
export function removeLine({ ctx, input }: { ctx: Ctx; input: LineRefInput }) {
  return ctx.db.transaction(async (trx) => {
    await lineOf(trx, input.lineId);
    await deleteLine(trx, input.lineId);
    return { message: messages.cart.removed };
  });
}
