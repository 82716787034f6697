/**
 * `npm run mail:send`: delivers the mail outbox once, until nothing is due, and exits. For
 * hosting without a long-running server process (serverless with Supabase or PostgreSQL): run it
 * on a schedule, or call /api/mail/send with CRON_SECRET. A running server delivers by itself.
 */
import { env } from "@/env";
import { startDatabase } from "@/server/db";
import { drainOutbox } from "@/server/mail/outbox";
import { mailShopFrom } from "@/server/mail/shop";
import { createMailTransport } from "@/server/platform/adapters/mail/transport";
import { shopSettingsFor } from "@/server/settings/shop-settings";
import { runCli } from "./lib/run-cli";

async function main(): Promise<number> {
  const transport = createMailTransport(env);
  if (transport.kind !== "smtp") {
    console.error("No SMTP server is configured: set SMTP_URL (see .env.example). The mails stay in the outbox.");
    return 1;
  }
  const database = await startDatabase();
  try {
    const settings = await shopSettingsFor(database);
    const report = await drainOutbox({ db: database.kysely, transport, shop: async () => mailShopFrom(await settings.published()) });
    console.log(`[mail] sent ${report.sent}, failed for good ${report.failed}, to retry later ${report.retrying}`);
    return 0;
  } finally {
    await database.close();
  }
}

runCli(main);
