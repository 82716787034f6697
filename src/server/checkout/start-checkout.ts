import type { TRPCContext } from "@/server/api/trpc";
import { site } from "@/server/settings/site";
import { openCheckoutReference } from "./checkout-queries";

/** What the checkout page shows: the bank details and a reference to pay with. */
export async function startCheckout({ ctx }: { ctx: Pick<TRPCContext, "db"> }) {
  const reference = await ctx.db.transaction((trx) => openCheckoutReference(trx));
  return { reference, bank: site.bank };
}
