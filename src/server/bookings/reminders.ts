import { repeatWithoutOverlap } from "@/lib/repeat";
import type { ShopDatabase } from "@/server/db/database";
import { sendDueReminders } from "./bookings-queries";

/** Every 5 minutes: a reminder goes out at most that long after its booking comes within 24 hours. */
export const BOOKING_REMINDER_CHECK_MS = 5 * 60_000;

/** At most this many reminders per run (the next run takes the rest). */
const REMINDERS_PER_RUN = 200;

/**
 * Sends the bookings' 24-hour reminders now and then every `everyMs`, on the server's own
 * (privileged) connection. SQL claims each one (send_booking_reminders(), docs/bookings.md), so
 * several servers running this at once never send one twice. The timer never keeps Node running
 * by itself, and a failed run is logged and retried at the next tick. Returns `stop`.
 */
export function startBookingReminderTimer(
  database: Pick<ShopDatabase, "kysely">,
  options: { everyMs?: number; log?: Pick<Console, "info" | "error"> } = {},
): () => void {
  const { everyMs = BOOKING_REMINDER_CHECK_MS, log = console } = options;
  return repeatWithoutOverlap(async () => {
    try {
      const sent = await sendDueReminders(database.kysely, new Date(), REMINDERS_PER_RUN);
      if (sent > 0) log.info(`[bookings] ${sent} booking reminder(s) written to the outbox`);
    } catch (error) {
      log.error("[bookings] sending booking reminders failed:", error instanceof Error ? error.message : error);
    }
  }, everyMs);
}
