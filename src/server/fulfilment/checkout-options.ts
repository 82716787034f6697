import { formatOpeningHours } from "@/lib/opening-hours";
import type { TRPCContext } from "@/server/api/trpc";
import type { SessionUser } from "@/server/auth/session-user";
import type { Tx } from "@/server/db/as-caller";
import { keptAddress, listDeliveryAreas, offeredDays, readFulfilmentSettings, type DeliveryArea } from "./fulfilment-queries";

export interface CheckoutFulfilment {
  /** False until the owner sets fulfilment up (collection on, or an active area): checkout asks nothing. */
  configured: boolean;
  /** The hours are the shop's opening hours, worded (the days offered follow the same rows). */
  collection: { address: string; hours: string } | null;
  areas: Pick<DeliveryArea, "id" | "name" | "fee" | "minimumOrder">[];
  /** The days this cart can have, soonest first (fulfilment_days(), South African time). */
  days: string[];
  /** The customer's kept address ("Keep this address for next time"). */
  kept: { address: string; areaId: string | null } | null;
}

/**
 * What to ask for some lines (a cart's, or a quote's when it is accepted): nothing when `asks` is
 * false or the owner has set nothing up; else the methods, areas, the kept address and the days
 * `days` reads (the lines' own offer). Read on every call: settings changed apply at once.
 */
export async function fulfilmentOptions(trx: Tx, userId: string, days: () => Promise<string[]>, asks = true): Promise<CheckoutFulfilment> {
  const settings = await readFulfilmentSettings(trx);
  const areas = await listDeliveryAreas(trx, { activeOnly: true });
  const configured = asks && (settings.collectionEnabled || areas.length > 0);
  if (!configured) return { configured, collection: null, areas: [], days: [], kept: null };
  return {
    configured,
    collection: settings.collectionEnabled ? { address: settings.collectionAddress, hours: formatOpeningHours(settings.openingHours) } : null,
    areas: areas.map(({ id, name, fee, minimumOrder }) => ({ id, name, fee, minimumOrder })),
    days: await days(),
    kept: await keptAddress(trx, userId),
  };
}

/**
 * fulfilment.options: what checkout asks for the caller's cart, read from the database on every
 * call (settings changed by the owner apply at once; the days follow the cart and capacity).
 */
export async function checkoutFulfilment({ ctx }: { ctx: Pick<TRPCContext, "db"> & { user: SessionUser } }): Promise<CheckoutFulfilment> {
  return ctx.db.transaction((trx) => fulfilmentOptions(trx, ctx.user.id, () => offeredDays(trx)));
}
