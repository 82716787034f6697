import { env } from "@/env";
import { startBookingReminderTimer } from "@/server/bookings/reminders";
import { provideSignedInLookup } from "@/server/kept-pages/signed-in-viewers";
import { logNewMails, startMailWorker } from "@/server/mail/worker";
import { startUnpaidOrderTimer } from "@/server/orders/unpaid-orders";
import { startRetentionTimer } from "@/server/privacy/retention";
import { mailShopOf, whatsappChannelOf } from "./mail";
import { serviceStorage } from "./request-services";
import { signedInLookup } from "./signed-in-lookup";
import { getShopProcess, type ShopProcess } from "./shop-process";

const RETRY_MS = 5_000;

/**
 * What a server process runs besides answering requests, started once when it starts
 * (src/instrumentation-node.ts), never by tests or `next build`: the unpaid-order policy, the
 * retention purge and the bookings' reminders on timers (unref'd), the outbox worker (mail and WhatsApp, each round with
 * the WhatsApp settings in force; it sends nothing without SMTP or WhatsApp; without SMTP in development, also the log of new mails), and who is signed in for the kept pages' templates. If the database cannot
 * be opened yet, it tries again until it can; requests meanwhile answer "try again".
 */
export async function startShopProcess(): Promise<void> {
  let shop: ShopProcess;
  try {
    shop = await getShopProcess();
  } catch (error) {
    console.error("[start] the database could not be opened yet:", error instanceof Error ? error.message : error);
    setTimeout(() => void startShopProcess(), RETRY_MS).unref();
    return;
  }
  startUnpaidOrderTimer(shop.database, async () => (await shop.settings.published()).unpaidOrderDays);
  startRetentionTimer(shop.database, () => serviceStorage(shop));
  startBookingReminderTimer(shop.database);
  const transport = shop.config.mail;
  // Always started: WhatsApp may be switched on in Shop settings at any time (each round reads it).
  startMailWorker(shop.database, { transport, whatsapp: () => whatsappChannelOf(shop), shop: mailShopOf(shop) });
  if (transport.kind !== "smtp" && env.NODE_ENV === "development") logNewMails(shop.database, mailShopOf(shop));
  provideSignedInLookup(signedInLookup(shop));
}
