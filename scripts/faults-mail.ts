/**
 * The mail phase of `npm run test:faults` (issue 17; docs/architecture.md#mail-outbox): the production server is
 * killed (SIGKILL, the whole process tree) after orders have committed and before their mails
 * were sent, and again while it is delivering, and must still deliver every mail, at least once,
 * each copy with its outbox row's Message-ID. The mails arrive at a real SMTP server on loopback
 * (tests/helpers/smtp.ts) and are checked against the outbox, read straight from the database
 * with the server stopped (the embedded database is the server's own while it runs).
 *
 *  1. Committed, not sent: the server starts with SMTP_URL pointing at the test server while it
 *     answers every mail with 451 (try later). Orders and a contact message go through the HTTP
 *     API; their rows commit with the events, the worker tries them and is refused, so nothing is
 *     sent, and the server is killed. The outbox must hold every mail, none sent.
 *  2. The test server accepts; the server restarts with the same SMTP_URL and must deliver them
 *     all, within the back-off the refusals earned (30 s) and one sweep.
 *  3. Killed while delivering: with the test server refusing again, MAIL_BURST more orders queue;
 *     the server is killed, restarted with the test server accepting slowly (every answer held
 *     back, so a mail can arrive without its sender hearing so) and killed again part-way through
 *     the queue; restarted once more, it must deliver the rest: a mail may arrive twice, never
 *     zero times, and both copies carry one Message-ID.
 *     In step 1 a customer also pays online: "Pay now", then a fake PayFast's signed ITN
 *     (tests/helpers/fake-payfast.ts) is answered 200, so the payment and its mails commit; they
 *     must arrive after the restart, each once, with one payment row.
 *  4. Every order in the database (those of the checkout rounds too, which were written without
 *     SMTP) has its customer's and the shop's mail delivered; every received mail's Message-ID is
 *     its row's; no Message-ID stands for two rows; every row ends sent.
 */
import { sql } from "kysely";
import { openDatabase, type ShopDatabase } from "@/server/db/database";
import { outboxMessageId } from "@/server/mail/message-id";
import { backoffMs, CLAIM_MS } from "@/server/mail/outbox";
import { SWEEP_MS } from "@/server/mail/worker";
import { FakePayFast } from "../tests/helpers/fake-payfast";
import { startTestSmtp, type ReceivedMail, type TestSmtp } from "../tests/helpers/smtp";
import type { BenchUser } from "./bench/prepare";
import { eachLimited, get, post, startServer, type FreshShop, type RunningServer } from "./bench/server";

/** Orders placed while the SMTP server refuses (step 1). */
export const MAIL_ORDERS = Number(process.env.FAULTS_MAIL_ORDERS ?? 5);
/** Orders queued for the kill during delivery (step 3). */
export const MAIL_BURST = Number(process.env.FAULTS_MAIL_BURST ?? 40);
/** How long the test SMTP server holds each answer while the server is killed mid-delivery (ms). */
const SLOW_SMTP_MS = Number(process.env.FAULTS_MAIL_SLOW_MS ?? 100);
/** The shop's public origin on the mail phase's servers: every Message-ID's host. */
const SITE_URL = "https://shop.faults.test";
/** Time for a restarted server to start and send what is due, on top of its waits (ms). */
const START_AND_SEND_MS = 30_000;

/** Places one order for `customer` through the HTTP API; the order's id, or throws. */
export type PlaceOrder = (baseUrl: string, customer: BenchUser) => Promise<string>;

export interface MailTally {
  mode: string;
  /** Orders in the database at the end, each owed a customer mail and a shop mail. */
  orders: number;
  outboxRows: number;
  /** 451s the test server answered before the first kill (the worker did try). */
  refusedBeforeKill1: number;
  unsentAtKill1: number;
  /** Rows sent (or given up on) or mails received although the SMTP server refused everything: must be 0. */
  sentWhileRefused: number;
  /** Seconds the first restart took to deliver everything (back-off and sweep included). */
  firstRestartSeconds: number;
  /** Rows due when the server restarted for the kill during delivery. */
  queuedBeforeKill2: number;
  /** Of those, rows delivered and marked sent before the kill. */
  sentBeforeKill2: number;
  /** Rows the worker had claimed and not finished when it was killed. */
  inFlightAtKill2: number;
  /** Mails the SMTP server had received whose rows were not marked sent: sent again later. */
  receivedUnmarkedAtKill2: number;
  /** Rows marked sent whose mail never arrived: must be 0. */
  markedSentNotReceived: number;
  received: number;
  /** Copies beyond the first of one row's mail (at least once: allowed). */
  duplicates: number;
  /** Rows whose mail never arrived: must be 0. */
  missing: number;
  /** Orders without a delivered customer or shop mail: must be 0. */
  orderMailsMissing: number;
  /** Received mails whose Message-ID is no row's, or another recipient's: must be 0. */
  wrongMessageIds: number;
  /** Message-IDs received on two different mails, or one mail under two Message-IDs: must be 0. */
  sharedMessageIds: number;
  /** Rows not sent (or failed) at the end: must be 0. */
  unsentAtEnd: number;
  /** The online payment's rows (must be 1) and its two mails' copies received (must be 1 each). */
  payfastPayments: number;
  payfastMailCopies: string;
  /** Why the phase failed, if it did (not shown in the table). */
  problems: string[];
}

interface Row {
  id: string;
  recipient: string;
  template: string;
  data: unknown;
  attempts: number;
  next_attempt_at: Date;
  sent_at: Date | null;
  failed_at: Date | null;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `done()` holds or `ms` pass; whether it holds. */
export async function until(done: () => boolean | Promise<boolean>, ms: number, every = 50): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await done()) return true;
    if (Date.now() >= deadline) return false;
    await sleep(every);
  }
}

/** Waits until the running server's outbox has nothing waiting (the admins' Outbox counts) or `ms` pass; whether it emptied. */
export function outboxEmptied(baseUrl: string, admin: BenchUser, ms: number): Promise<boolean> {
  return until(async () => ((await get(baseUrl, "mail.outbox", admin.cookie)) as { counts: { waiting: number } }).counts.waiting === 0, ms, 250);
}

export async function withDatabase<T>(fresh: FreshShop, work: (db: ShopDatabase) => Promise<T>): Promise<T> {
  const db = await openDatabase(fresh.database);
  try {
    return await work(db);
  } finally {
    await db.close();
  }
}

async function outboxRows(db: ShopDatabase): Promise<Row[]> {
  return db.kysely
    .selectFrom("mail_outbox")
    .select(["id", "recipient", "template", "data", "attempts", "next_attempt_at", "sent_at", "failed_at"])
    .orderBy("created_at")
    .execute();
}

const messageIdOf = (row: Pick<Row, "id">) => outboxMessageId(row.id, SITE_URL);
const referenceOf = (row: Pick<Row, "data">) => (row.data as { reference?: unknown } | null)?.reference;

/**
 * Claims a killed worker held lapse: the rows it had claimed are moved back by CLAIM_MS, to when
 * they were claimed, which is how a sweep CLAIM_MS (5 minutes) later finds them; the script does
 * not wait those 5 minutes. A row that was refused keeps its back-off (30 s after one refusal):
 * the restarted worker must find it when that has passed. A claim is told from a back-off by its
 * distance: a claim ends CLAIM_MS after it was taken, a back-off at most backoffMs(attempts)
 * after the failure, far less for the few tries these rows had. `everything` also makes the
 * backed-off rows due now (as a sweep finds them when their back-off has passed), so that a
 * restarted worker finds the whole queue due at once. Returns the claims and when the last row is due.
 */
export async function lapseClaims(db: ShopDatabase, everything = false): Promise<{ claimed: number; lastDueInMs: number }> {
  const { rows } = await sql<{ now: Date }>`select now() as now`.execute(db.kysely);
  const now = new Date(rows[0]!.now).getTime();
  const waiting = (await outboxRows(db)).filter((row) => !row.sent_at && !row.failed_at);
  const claimed = waiting.filter((row) => new Date(row.next_attempt_at).getTime() > now + backoffMs(row.attempts)).map((row) => row.id);
  if (claimed.length > 0) {
    await db.kysely
      .updateTable("mail_outbox")
      .set({ next_attempt_at: sql`next_attempt_at - ${`${CLAIM_MS} milliseconds`}::interval` })
      .where("id", "in", claimed)
      .execute();
  }
  if (everything) {
    await db.kysely.updateTable("mail_outbox").set({ next_attempt_at: sql`least(next_attempt_at, now())` }).where("sent_at", "is", null).where("failed_at", "is", null).execute();
  }
  const after = (await outboxRows(db)).filter((row) => !row.sent_at && !row.failed_at);
  const lastDue = Math.max(now, ...after.map((row) => new Date(row.next_attempt_at).getTime()));
  return { claimed: claimed.length, lastDueInMs: lastDue - now };
}

/** Whether every row of `rows` has arrived (by its Message-ID). */
function allArrived(smtp: TestSmtp, rows: Row[]): boolean {
  const arrived = new Set(smtp.received.map((mail) => mail.messageId));
  return rows.every((row) => arrived.has(messageIdOf(row)));
}

/** How the mails received compare with the outbox rows. */
function compare(rows: Row[], received: ReceivedMail[]) {
  const byMessageId = new Map(rows.map((row) => [messageIdOf(row), row]));
  const copies = new Map<string, number>();
  let wrongMessageIds = 0;
  for (const mail of received) {
    const row = mail.messageId ? byMessageId.get(mail.messageId) : undefined;
    const reference = row ? referenceOf(row) : undefined;
    if (!row || !mail.rcptTo.includes(row.recipient) || (typeof reference === "string" && !mail.subject.includes(reference) && !mail.text.includes(reference))) {
      wrongMessageIds++;
      continue;
    }
    copies.set(row.id, (copies.get(row.id) ?? 0) + 1);
  }
  // One Message-ID, one mail (recipient and subject), and one mail, one Message-ID: a mail sent
  // twice carries the same ID both times, and no two rows' mails share one.
  const mailsById = new Map<string, Set<string>>();
  const idsByMail = new Map<string, Set<string>>();
  for (const mail of received) {
    const key = `${[...mail.rcptTo].sort().join(",")}\n${mail.subject}`;
    const id = mail.messageId ?? "(none)";
    mailsById.set(id, (mailsById.get(id) ?? new Set()).add(key));
    idsByMail.set(key, (idsByMail.get(key) ?? new Set()).add(id));
  }
  const sharedMessageIds =
    [...mailsById.values()].filter((keys) => keys.size > 1).length +
    [...idsByMail.values()].filter((ids) => ids.size > 1).length +
    (byMessageId.size === rows.length ? 0 : rows.length - byMessageId.size);
  const duplicates = [...copies.values()].reduce((sum, n) => sum + n - 1, 0);
  return { copies, wrongMessageIds, sharedMessageIds, duplicates, missing: rows.filter((row) => !copies.has(row.id)).length };
}

/** Orders whose customer mail or shop mail is not among `delivered` row ids (or has no row at all). */
async function ordersWithoutMails(db: ShopDatabase, rows: Row[], delivered: (row: Row) => boolean): Promise<{ orders: number; without: number }> {
  const orders = await db.kysely.selectFrom("orders").select(["reference", "customer_email"]).execute();
  const owed = (reference: string, template: string, recipient?: string) =>
    rows.filter((row) => row.template === template && referenceOf(row) === reference && (recipient === undefined || row.recipient.toLowerCase() === recipient.toLowerCase()));
  let without = 0;
  for (const order of orders) {
    const toCustomer = owed(order.reference, "order_received", order.customer_email);
    const toShop = owed(order.reference, "new_order");
    if (toCustomer.length !== 1 || toShop.length !== 1 || !delivered(toCustomer[0]!) || !delivered(toShop[0]!)) without++;
  }
  return { orders: orders.length, without };
}

/** Runs the mail phase on a shop whose checkout rounds are done (server stopped); `customers` have no order yet. */
export async function runMailFaults(
  fresh: FreshShop,
  port: number,
  customers: BenchUser[],
  admin: BenchUser,
  placeOrder: PlaceOrder,
  productId: string,
): Promise<MailTally> {
  const firstCustomers = customers.slice(0, MAIL_ORDERS);
  const burstCustomers = customers.slice(MAIL_ORDERS, MAIL_ORDERS + MAIL_BURST);
  const payingOnline = customers[MAIL_ORDERS + MAIL_BURST];
  if (!payingOnline) throw new Error("the mail phase needs one more customer, who pays online");
  const payfast = await FakePayFast.start();
  const phaseStarted = Date.now();
  const say = (text: string) => console.log(`[faults] ${fresh.mode} mail (${Math.round((Date.now() - phaseStarted) / 1000)} s): ${text}`);
  say(`${firstCustomers.length} orders and a contact message while SMTP refuses, then ${burstCustomers.length} killed mid-delivery`);
  const smtp = await startTestSmtp();
  const env = {
    ...fresh.serverEnv,
    SMTP_URL: smtp.url,
    SITE_URL,
    // Seeds Shop settings at this start (the checkout rounds' starts had none).
    PAYFAST_MERCHANT_ID: payfast.merchant.merchantId,
    PAYFAST_MERCHANT_KEY: payfast.merchant.merchantKey,
    PAYFAST_PASSPHRASE: payfast.merchant.passphrase,
    PAYFAST_URL: payfast.url,
    PAYFAST_ITN_SOURCES: "127.0.0.1,::1",
  };
  const problems: string[] = [];
  let server: RunningServer | undefined;
  const restart = async () => (server = await startServer(port, env));
  const kill = async () => {
    await server?.kill();
    server = undefined;
  };
  try {
    // 1. Committed, not sent. Why 451 rather than a port that takes the connection and never
    // answers: a silent server keeps each send waiting for the greeting timeout (10 s, a row at
    // a time, 20 claimed), so when the kill lands is a matter of timing; a 451 is answered at
    // once, every try fails the same way, nothing can get through, and the refused rows carry
    // the back-off a restart has to honour. The kill during a send is step 3's.
    const leftByCheckouts = await withDatabase(fresh, async (db) => (await outboxRows(db)).length);
    smtp.mode = "refuse";
    const first = await restart();
    await eachLimited(firstCustomers, 5, async (customer) => void (await placeOrder(first.baseUrl, customer)));
    await post(first.baseUrl, "contact.send", "", { name: "Lerato Faults", email: "lerato@example.test", message: "Do you deliver to Soweto?" });
    const paidOnline = await payOnline(first.baseUrl, payingOnline, productId, payfast);
    // Each order's pair, the contact message, and the online payment's pair.
    const owed = leftByCheckouts + 2 * firstCustomers.length + 1 + 2 + 2;
    // Every mail tried once and refused (or 30 s: then some were not tried, which is fine too).
    await until(() => smtp.refused >= owed, 30_000);
    const refusedBeforeKill1 = smtp.refused;
    await kill();
    const atKill1 = await withDatabase(fresh, async (db) => {
      const rows = await outboxRows(db);
      const unsent = rows.filter((row) => !row.sent_at && !row.failed_at).length;
      const { without } = await ordersWithoutMails(db, rows, () => true);
      if (without > 0) problems.push(`${without} orders have no outbox rows after the first kill`);
      if (!rows.some((row) => row.template === "contact_message")) problems.push("the contact message has no outbox row");
      if (rows.length < owed) problems.push(`${rows.length} outbox rows after the first kill, ${owed} expected`);
      const lapsed = await lapseClaims(db);
      return { rows, unsent, ...lapsed };
    });
    const sentWhileRefused = atKill1.rows.length - atKill1.unsent + smtp.received.length;
    if (refusedBeforeKill1 === 0) problems.push("the worker never tried to send before the first kill (is it running?)");

    // 2. The server restarts and delivers: within the last row's back-off and one sweep.
    smtp.mode = "accept";
    const started = Date.now();
    const bound = atKill1.lastDueInMs + SWEEP_MS + START_AND_SEND_MS;
    const second = await restart();
    if (!(await until(() => allArrived(smtp, atKill1.rows), bound - (Date.now() - started), 200))) {
      problems.push(`the first restart did not deliver every mail within ${Math.round(bound / 1000)} s`);
    }
    const firstRestartSeconds = Math.round((Date.now() - started) / 100) / 10;
    say(`first kill with ${atKill1.unsent} unsent (${refusedBeforeKill1} refusals); delivered ${firstRestartSeconds} s after the restart`);

    // 3. A queue, and a kill while it is being delivered.
    smtp.mode = "refuse";
    await eachLimited(burstCustomers, 5, async (customer) => void (await placeOrder(second.baseUrl, customer)));
    await kill();
    const queued = await withDatabase(fresh, async (db) => {
      await lapseClaims(db, true);
      return (await outboxRows(db)).filter((row) => !row.sent_at && !row.failed_at).length;
    });
    smtp.mode = "accept";
    smtp.delayMs = SLOW_SMTP_MS;
    const receivedBefore = smtp.received.length;
    // The worker starts with the server process (instrumentation opens the database at start).
    // Killed once a third of the queue has arrived (not a multiple of BATCH, so part
    // of a claimed batch is still to send), and the mail being answered slowly has arrived
    // without its row being marked sent.
    await restart();
    await until(() => smtp.received.length - receivedBefore >= Math.max(1, Math.floor(queued / 3)), 60_000, 10);
    await kill();
    smtp.delayMs = 0;
    const atKill2 = await withDatabase(fresh, async (db) => {
      const rows = await outboxRows(db);
      const arrived = new Set(smtp.received.map((mail) => mail.messageId));
      const sent = rows.filter((row) => row.sent_at);
      const unsent = rows.filter((row) => !row.sent_at && !row.failed_at);
      const lapsed = await lapseClaims(db);
      return {
        rows,
        queued: unsent.length,
        markedSentNotReceived: sent.filter((row) => !arrived.has(messageIdOf(row))).length,
        receivedUnmarked: unsent.filter((row) => arrived.has(messageIdOf(row))).length,
        ...lapsed,
      };
    });
    if (atKill2.queued === 0) problems.push("the second kill came after the delivery had finished: it tested nothing");
    say(`killed during delivery with ${atKill2.queued} of ${queued} unsent (${atKill2.claimed} claimed, ${atKill2.receivedUnmarked} arrived but not marked sent)`);

    // 4. The last restart delivers the rest; the server is stopped once the outbox is empty.
    const bound2 = atKill2.lastDueInMs + SWEEP_MS + START_AND_SEND_MS;
    const last = await restart();
    if (!(await until(() => allArrived(smtp, atKill2.rows), bound2, 200))) problems.push(`the last restart did not deliver every mail within ${Math.round(bound2 / 1000)} s`);
    // The worker marks a row sent just after the server accepted it: wait for the marks too.
    await outboxEmptied(last.baseUrl, admin, 10_000);
    await server?.stop();
    server = undefined;
    say(`last restart: ${smtp.received.length} mails received in all`);

    return await withDatabase(fresh, async (db) => {
      const rows = await outboxRows(db);
      const result = compare(rows, smtp.received);
      const { orders, without } = await ordersWithoutMails(db, rows, (row) => result.copies.has(row.id));
      const paymentRows = rows.filter((row) => (row.template === "payment_received" || row.template === "payment_notice") && referenceOf(row) === paidOnline);
      const payfastMailCopies = paymentRows.map((row) => `${row.template}×${result.copies.get(row.id) ?? 0}`).sort().join(" ");
      if (payfastMailCopies !== "payment_notice×1 payment_received×1") problems.push(`the online payment's mails arrived as ${payfastMailCopies || "nothing"}`);
      const payfastPayments = (await db.kysely.selectFrom("payments").select("id").execute()).length;
      if (payfastPayments !== 1) problems.push(`${payfastPayments} payment rows, 1 expected`);
      return {
        mode: fresh.mode,
        orders,
        outboxRows: rows.length,
        refusedBeforeKill1,
        unsentAtKill1: atKill1.unsent,
        sentWhileRefused,
        firstRestartSeconds,
        queuedBeforeKill2: queued,
        sentBeforeKill2: queued - atKill2.queued,
        inFlightAtKill2: atKill2.claimed,
        receivedUnmarkedAtKill2: atKill2.receivedUnmarked,
        markedSentNotReceived: atKill2.markedSentNotReceived,
        received: smtp.received.length,
        duplicates: result.duplicates,
        missing: result.missing,
        orderMailsMissing: without,
        wrongMessageIds: result.wrongMessageIds,
        sharedMessageIds: result.sharedMessageIds,
        unsentAtEnd: rows.filter((row) => !row.sent_at || row.failed_at).length,
        payfastPayments,
        payfastMailCopies,
        problems,
      };
    });
  } catch (error) {
    if (server) console.error(`[faults] server log:\n${server.log().slice(-4000)}`);
    throw error;
  } finally {
    await server?.kill();
    await smtp.close();
    await payfast.close();
  }
}

/**
 * A customer pays online: "Pay now" through the HTTP API, then PayFast's ITN for that form, posted
 * to the shop's notify route as PayFast would (from loopback, which PAYFAST_ITN_SOURCES allows);
 * it must be answered 200 (recorded). Returns the order's reference.
 */
async function payOnline(baseUrl: string, customer: BenchUser, productId: string, payfast: FakePayFast): Promise<string> {
  await post(baseUrl, "cart.add", customer.cookie, { productId });
  const { reference } = (await get(baseUrl, "checkout.start", customer.cookie)) as { reference: string };
  const payment = (await post(baseUrl, "payments.payNow", customer.cookie, { reference, idempotencyKey: crypto.randomUUID() })) as { fields: [string, string][] };
  const form = Object.fromEntries(payment.fields);
  const status = await payfast.notify(`${baseUrl}/api/payments/payfast/notify`, payfast.itnFor(form));
  if (status !== 200) throw new Error(`the shop answered PayFast's ITN with ${status}`);
  return reference;
}

/** Whether a mail tally shows a violation; the reasons. */
export function mailViolations(tally: MailTally): string[] {
  const reasons = [...tally.problems];
  const mustBeZero = ["sentWhileRefused", "markedSentNotReceived", "missing", "orderMailsMissing", "wrongMessageIds", "sharedMessageIds", "unsentAtEnd"] as const;
  for (const key of mustBeZero) if (tally[key] > 0) reasons.push(`${key}: ${tally[key]}`);
  return reasons;
}
