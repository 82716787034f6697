import { repeatWithoutOverlap } from "@/lib/repeat";
import type { ShopDatabase } from "@/server/db/database";
import { cancelUnpaidOrders } from "./order-queries";

/** Every 15 minutes: an order is cancelled at most that long after its time is up, even with no admin around. */
export const UNPAID_ORDER_CHECK_MS = 15 * 60_000;

/**
 * Cancels unpaid orders now and then every `everyMs`, on the server's own (privileged)
 * connection: the shop keeps its policy while no admin is signed in. Started once per process at
 * platform start-up (src/server/platform/index.ts getDatabase()). The timer never keeps Node
 * running by itself, and a failed run is logged and retried at the next tick. Returns `stop`.
 */
export function startUnpaidOrderTimer(
  database: Pick<ShopDatabase, "kysely">,
  /** The shop settings' number of days (0: never), read afresh each run so an owner's change applies. */
  days: () => Promise<number>,
  options: { everyMs?: number; log?: Pick<Console, "info" | "error"> } = {},
): () => void {
  const { everyMs = UNPAID_ORDER_CHECK_MS, log = console } = options;
  // A slow run (a locked database) is not overtaken by the next tick.
  return repeatWithoutOverlap(async () => {
    try {
      const limit = await days();
      const cancelled = await cancelUnpaidOrders(database.kysely, limit);
      if (cancelled > 0) log.info(`[orders] cancelled ${cancelled} order(s) not paid within ${limit} day(s)`);
    } catch (error) {
      log.error("[orders] cancelling unpaid orders failed:", error instanceof Error ? error.message : error);
    }
  }, everyMs);
}
