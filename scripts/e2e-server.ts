/**
 * Serves the production build for the browser tests: a fresh, temporary embedded data directory
 * every run, so tests start from the seeded shop and leave nothing behind.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { e2eServerLogPath } from "../tests/e2e/server-log";

const port = process.env.E2E_PORT ?? "3100";
if (!fs.existsSync(path.join(".next", "BUILD_ID"))) {
  console.error("No production build found: run `npm run build` before the browser tests.");
  process.exit(1);
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-e2e-"));

// Prepare the data directory before the server takes it: migrations, the demo catalogue, the
// demo admin and customer as test fixtures (the production server itself never seeds them), and
// shop settings with a real-looking bank account (production refuses orders to the demo one).
const { openDatabase } = await import("@/server/db/database");
const { migrate } = await import("@/server/db/migrate");
const { seedOnce } = await import("@/server/db/seed");
const { configuredShopSettings } = await import("../tests/helpers/shop-settings");
const fixtures = await openDatabase({ engine: "pglite", dataDir });
await migrate(fixtures.kysely);
await seedOnce(fixtures.kysely, { demoUsers: true, settings: configuredShopSettings() });
// Order Management's browser tests need more than one page of orders (50) and an order unpaid
// past the shop's limit: 60 delivered orders of former customers (accounts gone, orders kept),
// and one left unpaid two weeks ago, which the server's unpaid-order timer cancels as it starts.
await sql`
  insert into public.orders (reference, user_id, customer_name, customer_email, total, status, idempotency_key, created_at)
  select 'ORD-' || (900000 + g), null::uuid, 'Former Customer ' || g, 'former' || g || '@example.test', 50 + g, 'complete'::public.order_status, gen_random_uuid(),
         now() - interval '20 days' - g * interval '1 hour'
  from generate_series(1, 60) g
  union all
  select 'ORD-999999', null::uuid, 'Unpaid Fixture', 'unpaid@example.test', 35, 'pending_payment'::public.order_status, gen_random_uuid(), now() - interval '14 days'`.execute(fixtures.kysely);
await sql`
  insert into public.order_items (order_id, product_id, product_name, unit_price, quantity)
  select id, null, 'Chicken pie', total, 1 from public.orders where user_id is null`.execute(fixtures.kysely);
// The fixtures' own mails (their orders' notices) are not for anyone: marked sent, so the SMTP
// server below receives only the mails the tests cause.
await sql`update public.mail_outbox set sent_at = now() where sent_at is null`.execute(fixtures.kysely);
await fixtures.close();

// A fake PayFast on loopback (tests/helpers/fake-payfast.ts), for the "Pay now" browser test: the
// shop posts its checkout form there and believes ITNs from 127.0.0.1 only. PayFast itself is set
// up by that test through Shop settings, as an owner would; until then checkout offers bank transfer only.
const { FakePayFast } = await import("../tests/helpers/fake-payfast");
const payfast = await FakePayFast.start(undefined, Number(port) + 50);

// A real SMTP server on loopback (tests/helpers/smtp.ts) that the shop sends its mails to, and a
// reader at E2E_PORT+52 answering what arrived as JSON, for the account recovery and bookings browser tests
// (the embedded database is the server's alone, so the test cannot read the outbox itself).
const { startTestSmtp } = await import("../tests/helpers/smtp");
const smtp = await startTestSmtp();
const http = await import("node:http");
const mailReader = http
  .createServer((_request, response) => {
    response.setHeader("content-type", "application/json");
    response.end(
      JSON.stringify(
        smtp.received.map((mail) => ({
          to: mail.rcptTo,
          subject: mail.subject,
          text: mail.text,
          // Files with it (the bookings' calendar files), as text.
          attachments: mail.parsed.attachments.map((file) => ({ filename: file.filename ?? "", content: file.content.toString("utf8") })),
        })),
      ),
    );
  })
  .listen(Number(port) + 52, "127.0.0.1");

// A fake WhatsApp Cloud API at E2E_PORT+54 (tests/helpers/fake-whatsapp.ts), for the WhatsApp
// browser test: it answers the shop's template messages and lists them at /_sent. Its token and
// secrets are the test's own (tests/e2e/whatsapp.spec.ts signs its webhook posts with them).
const { startFakeWhatsApp } = await import("../tests/helpers/fake-whatsapp");
const { E2E_WHATSAPP } = await import("../tests/e2e/whatsapp-fixture");
const whatsapp = await startFakeWhatsApp({ port: Number(port) + 54, ...E2E_WHATSAPP });

const server = spawn(process.execPath, ["scripts/start.mjs", "-p", port], {
  stdio: ["inherit", "pipe", "pipe"],
  env: {
    ...process.env,
    DATA_DIR: dataDir,
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    SITE_URL: `http://localhost:${port}`,
    PAYFAST_URL: payfast.url,
    PAYFAST_ITN_SOURCES: "127.0.0.1,::1",
    SMTP_URL: smtp.url,
    WHATSAPP_PHONE_NUMBER_ID: whatsapp.settings.phoneNumberId,
    WHATSAPP_ACCESS_TOKEN: whatsapp.settings.accessToken,
    WHATSAPP_APP_SECRET: whatsapp.settings.appSecret,
    WHATSAPP_VERIFY_TOKEN: whatsapp.settings.verifyToken,
    WHATSAPP_API_URL: whatsapp.settings.apiUrl,
    // Every browser test signs its customers up from 127.0.0.1: more than the shop's 20 an hour.
    SIGN_UPS_PER_ADDRESS_PER_HOUR: "1000",
  },
});

// The server's output also goes to a file the browser tests read (a secret must never reach it).
const serverLog = fs.createWriteStream(e2eServerLogPath(port), { flags: "w" });
server.stdout!.on("data", (chunk: Buffer) => {
  process.stdout.write(chunk);
  serverLog.write(chunk);
});
server.stderr!.on("data", (chunk: Buffer) => {
  process.stderr.write(chunk);
  serverLog.write(chunk);
});

function cleanUp() {
  fs.rmSync(dataDir, { recursive: true, force: true });
}

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => server.kill(signal));
}
server.on("exit", (code) => {
  void payfast.close();
  void smtp.close();
  void whatsapp.close();
  mailReader.close();
  cleanUp();
  process.exit(code ?? 0);
});
