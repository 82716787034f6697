/**
 * `npm run test:faults`: kills the production server (SIGKILL, the whole process tree) while
 * checkouts are under way, starts it again, lets every client retry with its own idempotency key,
 * and checks what a shop owner needs: every order a client was told succeeded exists exactly once,
 * every customer ends with exactly one order, no order is half-written, no upload is orphaned.
 * Then the mail phase (scripts/faults-mail.ts): killed after orders commit and before their mails
 * are sent, and again while it delivers, the server still delivers every mail at least once, each
 * with its outbox row's Message-ID. Then the WhatsApp phase (scripts/faults-whatsapp.ts): killed
 * with a message claimed and not sent, and sent and not marked, each notice reaches WhatsApp once;
 * a booking's reminder across kills is sent once, a cancelled booking's never.
 * Runs on a fresh embedded data directory and, when TEST_DATABASE_URL is set, on PostgreSQL.
 * Needs a production build (`npm run build`). Exits non-zero on any violation.
 */
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { sql } from "kysely";
import { listObjectFiles } from "@/server/platform/adapters/local/local-storage";
import { openDatabase } from "@/server/db/database";
import { makeNoisyPng } from "../tests/helpers/images";
import { prepareShop, type BenchUser } from "./bench/prepare";
import { MAIL_BURST, MAIL_ORDERS, mailViolations, runMailFaults, type MailTally } from "./faults-mail";
import { runWhatsAppFaults, WHATSAPP_CUSTOMERS, whatsappViolations, type WhatsAppTally } from "./faults-whatsapp";
import { eachLimited, get, multipart, post, startServer, withFreshEmbeddedShop, withFreshPostgresShop, type FreshShop, type RunningServer } from "./bench/server";

const PORT = Number(process.env.FAULTS_PORT ?? 3500);
const CUSTOMERS = Number(process.env.FAULTS_CUSTOMERS ?? 80);
const ROUNDS = Number(process.env.FAULTS_ROUNDS ?? 3);

interface Attempt {
  customer: BenchUser;
  reference: string;
  idempotencyKey: string;
  /** The order id the server answered with, if it answered success. */
  confirmed?: string;
}

interface Tally {
  mode: string;
  checkouts: number;
  killsInjected: number;
  /** Checkouts confirmed to their clients by the time of the last kill. */
  confirmedAtLastKill: number;
  ordersLost: number;
  duplicateOrders: number;
  halfWrittenOrders: number;
  orphanedRows: number;
  orphanedFiles: number;
}

const proof = makeNoisyPng(50 * 1024);

async function checkout(baseUrl: string, attempt: Attempt): Promise<void> {
  const form = multipart({ reference: attempt.reference, idempotencyKey: attempt.idempotencyKey }, { name: "proof.png", type: "image/png", bytes: proof });
  const response = await fetch(`${baseUrl}/api/trpc/checkout.placeOrder`, {
    method: "POST",
    headers: { cookie: attempt.customer.cookie, "content-type": form.contentType, origin: baseUrl },
    body: form.body,
  });
  const body = (await response.json()) as { result?: { data?: { json?: { orderId?: string } } } };
  if (response.ok && body.result?.data?.json?.orderId) attempt.confirmed = body.result.data.json.orderId;
}

/** One order through the HTTP API, as a customer's browser places it (no kill meanwhile): its id. */
async function placeOrder(baseUrl: string, customer: BenchUser, productId: string): Promise<string> {
  await post(baseUrl, "cart.add", customer.cookie, { productId });
  const { reference } = (await get(baseUrl, "checkout.start", customer.cookie)) as { reference: string };
  const attempt: Attempt = { customer, reference, idempotencyKey: randomUUID() };
  await checkout(baseUrl, attempt);
  if (!attempt.confirmed) throw new Error(`${customer.email}: the order was not placed`);
  return attempt.confirmed;
}

/** The checkout rounds, then the mail phase on the same shop (its customers have no order yet). */
async function runMode(fresh: FreshShop): Promise<{ tally: Tally; mail: MailTally; whatsapp: WhatsAppTally }> {
  console.log(`\n[faults] ${fresh.mode}: ${CUSTOMERS} customers, ${ROUNDS} kills`);
  // One more customer than the mail phase orders for: the one who pays online (PayFast).
  const mailCustomers = MAIL_ORDERS + MAIL_BURST + 1;
  const shop = await prepareShop({ database: fresh.database, dataDir: fresh.dataDir, products: 20, customers: CUSTOMERS + mailCustomers + WHATSAPP_CUSTOMERS });
  const productId = shop.productIds[0]!;
  const order = (baseUrl: string, customer: BenchUser) => placeOrder(baseUrl, customer, productId);
  const tally = await runCheckouts(fresh, shop.customers.slice(0, CUSTOMERS), productId);
  const mail = await runMailFaults(fresh, PORT, shop.customers.slice(CUSTOMERS, CUSTOMERS + mailCustomers), shop.admin, order, productId);
  const whatsapp = await runWhatsAppFaults(fresh, PORT, shop.customers.slice(CUSTOMERS + mailCustomers), shop.admin, order);
  return { tally, mail, whatsapp };
}

async function runCheckouts({ mode, database, dataDir, serverEnv }: FreshShop, customers: BenchUser[], productId: string): Promise<Tally> {
  let server: RunningServer = await startServer(PORT, serverEnv);
  const attempts: Attempt[] = customers.map((customer) => ({ customer, reference: "", idempotencyKey: randomUUID() }));
  let kills = 0;
  let confirmedAtLastKill = 0;
  try {
    await eachLimited(customers, 8, async (customer) => void (await post(server.baseUrl, "cart.add", customer.cookie, { productId })));
    // Each customer pays with the reference their checkout page reserves (place_order takes no other).
    await eachLimited(attempts, 8, async (attempt) => {
      const { reference } = (await get(server.baseUrl, "checkout.start", attempt.customer.cookie)) as { reference: string };
      attempt.reference = reference;
    });

    // Each round: every client still without an answer tries (again, same key), and the server
    // is killed part-way through. A last round without a kill lets everyone finish.
    for (let round = 0; round <= ROUNDS; round++) {
      const pending = attempts.filter((a) => !a.confirmed);
      if (pending.length === 0) break;
      const inFlight = eachLimited(pending, 10, (attempt) => checkout(server.baseUrl, attempt).catch(() => undefined));
      if (round < ROUNDS) {
        // Let a few more finish (or 5 s pass) while many are mid-way, then pull the plug.
        const target = attempts.filter((a) => a.confirmed).length + 3 + Math.floor(Math.random() * 5);
        for (let waited = 0; waited < 5_000 && attempts.filter((a) => a.confirmed).length < target; waited += 20) {
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        await server.kill();
        kills++;
        await inFlight;
        confirmedAtLastKill = attempts.filter((a) => a.confirmed).length;
        console.log(`[faults] kill ${kills}: ${confirmedAtLastKill}/${attempts.length} confirmed so far`);
        server = await startServer(PORT, serverEnv);
      } else {
        await inFlight;
      }
    }
  } finally {
    await server.stop();
  }

  // Check the data itself, with the server stopped.
  const db = await openDatabase(database);
  try {
    const orders = await db.kysely.selectFrom("orders").select(["id", "user_id", "reference", "idempotency_key", "proof_path", "total"]).execute();
    const byId = new Map(orders.map((o) => [o.id, o]));
    const ordersLost = attempts.filter((a) => a.confirmed && !byId.has(a.confirmed)).length;
    const perCustomer = new Map<string, number>();
    for (const order of orders) perCustomer.set(order.user_id ?? "", (perCustomer.get(order.user_id ?? "") ?? 0) + 1);
    const duplicateOrders = [...perCustomer.values()].reduce((sum, n) => sum + Math.max(0, n - 1), 0);
    const unserved = attempts.filter((a) => !perCustomer.has(a.customer.id)).length;
    const { rows: half } = await sql<{ n: number }>`
      select count(*)::int as n from public.orders o
      where o.proof_path is null
         or not exists (select 1 from public.order_items i where i.order_id = o.id)
         or o.total <> (select coalesce(sum(i.unit_price * i.quantity), 0) from public.order_items i where i.order_id = o.id)`.execute(db.kysely);
    const { rows: orphanRows } = await sql<{ n: number }>`
      select count(*)::int as n from storage.objects s
      where s.bucket_id = 'payments' and not exists (select 1 from public.orders o where o.proof_path = s.name)`.execute(db.kysely);
    const rows = await db.kysely.selectFrom("storage.objects").select(["bucket_id", "name"]).execute();
    const known = new Set(rows.map((r) => path.join(r.bucket_id ?? "", r.name ?? "")));
    const files = await listObjectFiles(path.join(dataDir, "storage"));
    const orphanedFiles = files.filter((file) => !known.has(file)).length + rows.filter((r) => r.bucket_id === "payments" && !files.includes(path.join("payments", r.name ?? ""))).length;
    if (unserved > 0) throw new Error(`${unserved} customers have no order after retrying`);
    return {
      mode,
      checkouts: attempts.length,
      killsInjected: kills,
      confirmedAtLastKill,
      ordersLost,
      duplicateOrders,
      halfWrittenOrders: half[0]!.n,
      orphanedRows: orphanRows[0]!.n,
      orphanedFiles,
    };
  } finally {
    await db.close();
  }
}

async function main(): Promise<number> {
  if (!fs.existsSync(path.join(".next", "BUILD_ID"))) {
    console.error("No production build found: run `npm run build` first.");
    return 1;
  }
  const results: { tally: Tally; mail: MailTally; whatsapp: WhatsAppTally }[] = [];
  results.push(await withFreshEmbeddedShop("shop-faults", runMode));
  if (process.env.TEST_DATABASE_URL) results.push(await withFreshPostgresShop(process.env.TEST_DATABASE_URL, "shop-faults", runMode));
  const tallies = results.map((r) => r.tally);
  const mails = results.map((r) => r.mail);

  console.log("\n[faults] results");
  console.table(tallies);
  console.log("\n[faults] mail: kill -9 after orders commit and before sending, then during delivery");
  console.table(mails.map((mail) => Object.fromEntries(Object.entries(mail).filter(([key]) => key !== "problems"))));
  let failed = false;
  const bad = tallies.filter((t) => t.ordersLost + t.duplicateOrders + t.halfWrittenOrders + t.orphanedRows + t.orphanedFiles > 0);
  if (bad.length > 0) {
    console.error("[faults] FAILED: orders lost, duplicated or half-written, or uploads orphaned (see the table).");
    failed = true;
  }
  for (const mail of mails) {
    const reasons = mailViolations(mail);
    if (reasons.length > 0) {
      console.error(`[faults] FAILED (${mail.mode} mail): ${reasons.join("; ")}`);
      failed = true;
    }
  }
  console.log("\n[faults] WhatsApp: kill -9 with a message claimed and not sent, then sent and not marked; a booking's reminder across kills");
  console.table(results.map(({ whatsapp }) => Object.fromEntries(Object.entries(whatsapp).filter(([key]) => key !== "problems"))));
  for (const { whatsapp } of results) {
    const reasons = whatsappViolations(whatsapp);
    if (reasons.length > 0) {
      console.error(`[faults] FAILED (${whatsapp.mode} WhatsApp): ${reasons.join("; ")}`);
      failed = true;
    }
  }
  if (failed) return 1;
  console.log("[faults] passed: no order lost, duplicated or half-written; no orphaned upload.");
  console.log("[faults] passed: every mail delivered after the kills, at least once, each copy with its row's Message-ID.");
  console.log("[faults] passed: every WhatsApp notice sent once across the kills, none without consent; the reminder once, never for the cancelled booking.");
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
