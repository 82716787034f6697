/**
 * The WhatsApp and booking-reminder phase of `npm run test:faults` (issues 38 and 40): the
 * production server is killed (SIGKILL, the whole process tree) at the two moments the outbox's
 * WhatsApp delivery can be cut, and between a booking's commit and its reminder, and must still
 * send each notice once. WhatsApp is a fake Cloud API on loopback (tests/helpers/fake-whatsapp.ts)
 * that recognises a repeated send by its idempotency key; mail a real SMTP server on loopback.
 *
 *  1. Claimed, not sent: customers who chose WhatsApp order while the fake holds each message
 *     before taking it; the server is killed with a message held. Nothing reached WhatsApp.
 *  2. Restarted, every notice is sent: one message per outbox row.
 *  3. Sent, not marked: more orders while the fake takes each message and holds its answer; the
 *     server is killed with an answer held (WhatsApp has the message, the row is not marked).
 *  4. Restarted, the rest is sent; the message already taken is sent again with the same
 *     idempotency key, which the fake recognises: still one message per row. Nobody who did not
 *     choose WhatsApp got a message there.
 *  5. A booking within 24 hours commits and the server is killed before its reminder is written
 *     or mailed; restarted (SMTP refusing), the reminder is written once; a second customer's
 *     booking is cancelled while its reminder waits, which withdraws it; restarted with SMTP
 *     accepting, and once more, the first reminder arrives (one Message-ID) and the cancelled
 *     booking's never does.
 */
import { sql } from "kysely";
import { shopDay } from "@/lib/days";
import type { ShopDatabase } from "@/server/db/database";
import { outboxMessageId } from "@/server/mail/message-id";
import { SWEEP_MS } from "@/server/mail/worker";
import { startFakeWhatsApp } from "../tests/helpers/fake-whatsapp";
import { startTestSmtp } from "../tests/helpers/smtp";
import type { BenchUser } from "./bench/prepare";
import { eachLimited, get, post, startServer, type FreshShop, type RunningServer } from "./bench/server";
import { lapseClaims, outboxEmptied, until, withDatabase, type PlaceOrder } from "./faults-mail";

/** Orders of customers on WhatsApp in each of steps 1 and 3 (and two who are not, in step 1). */
export const WHATSAPP_ORDERS = Number(process.env.FAULTS_WHATSAPP_ORDERS ?? 6);
/** Customers the phase needs: 2 × WHATSAPP_ORDERS on WhatsApp, 2 without it, 2 who book. */
export const WHATSAPP_CUSTOMERS = 2 * WHATSAPP_ORDERS + 4;
/** How long the fake holds a message while the server is killed (ms). */
const HOLD_MS = 10_000;
const SITE_URL = "https://shop.faults.test";
/** Time for a restarted server to start and send what is due, on top of its waits (ms). */
const START_AND_SEND_MS = 30_000;

export interface WhatsAppTally {
  mode: string;
  /** Customer notices that went on WhatsApp (outbox rows). */
  whatsappRows: number;
  /** Messages WhatsApp had taken at the first kill (claimed, not sent): must be 0. */
  takenAtKill1: number;
  /** Rows whose message WhatsApp had taken without the row being marked, at the second kill. */
  takenUnmarkedAtKill2: number;
  /** Sends the fake recognised as repeats by their idempotency key (the retries after the kill). */
  repeatsRecognised: number;
  /** Rows with no message, or with two, at WhatsApp: must be 0. */
  missing: number;
  duplicates: number;
  /** Messages to a number whose customer did not choose WhatsApp, or for no row: must be 0. */
  unwanted: number;
  /** The booked customer's reminder: rows (must be 1) and Message-IDs received (must be 1). */
  reminderRows: number;
  reminderMessageIds: number;
  /** Reminders mailed for the cancelled booking: must be 0. */
  cancelledReminders: number;
  problems: string[];
}

interface OutboxRow {
  id: string;
  template: string;
  channel: string;
  recipient: string;
  sent_at: Date | null;
  data: unknown;
}

const phoneOf = (index: number) => `+2782666${String(index).padStart(4, "0")}`;

async function rowsOf(db: ShopDatabase): Promise<OutboxRow[]> {
  return db.kysely.selectFrom("mail_outbox").select(["id", "template", "channel", "recipient", "sent_at", "data"]).orderBy("created_at").execute();
}

/** A bookable service at the shop, open all day every day, bookable at no notice (privileged, as a set-up with the server stopped). */
async function bookableService(db: ShopDatabase): Promise<string> {
  const { rows } = await sql<{ id: string }>`
    insert into public.products (name, price, category_id)
    select 'Faults consultation', 500, id from public.categories order by name limit 1
    returning id`.execute(db.kysely);
  const id = rows[0]!.id;
  await sql`insert into public.bookable_services (product_id, duration_minutes, capacity, notice_hours, horizon_days, location) values (${id}::uuid, 60, 5, 0, 30, 'shop')`.execute(db.kysely);
  await sql`insert into public.bookable_service_hours (product_id, weekday, opens, closes) select ${id}::uuid, d, '00:00', '23:59' from generate_series(1, 7) d`.execute(db.kysely);
  return id;
}

/** A customer books a free time at least two hours ahead (the `nth` such, within 24 hours) and places the order. */
async function book(baseUrl: string, customer: BenchUser, serviceId: string, nth: number, placeOrder: PlaceOrder): Promise<void> {
  const slots = (await get(baseUrl, "bookings.freeSlots", customer.cookie, { productId: serviceId, from: shopDay(0), days: 2 })) as { startsAt: string }[];
  const soon = slots.filter((slot) => new Date(slot.startsAt).getTime() > Date.now() + 2 * 3_600_000);
  const slot = soon[nth];
  if (!slot) throw new Error("no free time for the reminder case");
  await post(baseUrl, "cart.addBooking", customer.cookie, { productId: serviceId, startsAt: slot.startsAt });
  await placeOrder(baseUrl, customer);
}

export async function runWhatsAppFaults(fresh: FreshShop, port: number, customers: BenchUser[], admin: BenchUser, placeOrder: PlaceOrder): Promise<WhatsAppTally> {
  if (customers.length < WHATSAPP_CUSTOMERS) throw new Error(`the WhatsApp phase needs ${WHATSAPP_CUSTOMERS} customers`);
  const onWhatsApp = customers.slice(0, 2 * WHATSAPP_ORDERS);
  const notOnWhatsApp = customers.slice(2 * WHATSAPP_ORDERS, 2 * WHATSAPP_ORDERS + 2);
  const [booker, canceller] = customers.slice(2 * WHATSAPP_ORDERS + 2);
  const phaseStarted = Date.now();
  const say = (text: string) => console.log(`[faults] ${fresh.mode} WhatsApp (${Math.round((Date.now() - phaseStarted) / 1000)} s): ${text}`);
  const fake = await startFakeWhatsApp();
  const smtp = await startTestSmtp();
  const env = {
    ...fresh.serverEnv,
    SMTP_URL: smtp.url,
    SITE_URL,
    WHATSAPP_PHONE_NUMBER_ID: fake.settings.phoneNumberId,
    WHATSAPP_ACCESS_TOKEN: fake.settings.accessToken,
    WHATSAPP_APP_SECRET: fake.settings.appSecret,
    WHATSAPP_VERIFY_TOKEN: fake.settings.verifyToken,
    WHATSAPP_API_URL: fake.settings.apiUrl ?? "",
    WHATSAPP_API_VERSION: fake.settings.apiVersion ?? "",
  };
  const problems: string[] = [];
  let server: RunningServer | undefined;
  const restart = async () => (server = await startServer(port, env));
  const kill = async () => {
    await server?.kill();
    server = undefined;
  };
  const unheld = () => new Promise((resolve) => setTimeout(resolve, HOLD_MS + 500));
  try {
    const serviceId = await withDatabase(fresh, bookableService);
    const rowsBefore = new Set(await withDatabase(fresh, async (db) => (await rowsOf(db)).map((row) => row.id)));

    // 1. Claimed, not sent.
    const first = await restart();
    await eachLimited(onWhatsApp, 4, async (customer, index) => {
      await post(first.baseUrl, "messaging.setConsent", customer.cookie, { kind: "whatsapp_updates", given: true, phone: `0${phoneOf(index).slice(3)}`, source: "profile" });
    });
    fake.hold = { when: "before", ms: HOLD_MS };
    for (const customer of [...onWhatsApp.slice(0, WHATSAPP_ORDERS), ...notOnWhatsApp]) await placeOrder(first.baseUrl, customer);
    if (!(await until(() => fake.held > 0, 10_000))) problems.push("no WhatsApp message was on its way at the first kill (is the worker running?)");
    await kill();
    const takenAtKill1 = fake.sent.length;
    fake.hold = null;
    await unheld();
    const atKill1 = await withDatabase(fresh, async (db) => {
      const rows = (await rowsOf(db)).filter((row) => !rowsBefore.has(row.id) && row.channel === "whatsapp");
      await lapseClaims(db, true);
      return rows;
    });
    if (atKill1.length !== WHATSAPP_ORDERS) problems.push(`${atKill1.length} WhatsApp rows after the first kill, ${WHATSAPP_ORDERS} expected`);
    say(`first kill with a message held before WhatsApp took it: ${atKill1.filter((row) => !row.sent_at).length} of ${atKill1.length} rows unsent, ${takenAtKill1} taken`);

    // 2. Restarted: everything sent.
    const second = await restart();
    if (!(await until(() => atKill1.every((row) => fake.sent.some((message) => message.idempotencyKey === row.id)), SWEEP_MS + START_AND_SEND_MS, 200))) {
      problems.push("the first restart did not send every WhatsApp notice");
    }

    // 3. Sent, not marked.
    fake.hold = { when: "after", ms: HOLD_MS };
    const takenBefore = fake.sent.length;
    for (const customer of onWhatsApp.slice(WHATSAPP_ORDERS)) await placeOrder(second.baseUrl, customer);
    if (!(await until(() => fake.sent.length > takenBefore && fake.held > 0, 10_000))) problems.push("no WhatsApp answer was held at the second kill");
    await kill();
    fake.hold = null;
    await unheld();
    const takenUnmarkedAtKill2 = await withDatabase(fresh, async (db) => {
      const unsent = (await rowsOf(db)).filter((row) => row.channel === "whatsapp" && !row.sent_at);
      await lapseClaims(db, true);
      return unsent.filter((row) => fake.sent.some((message) => message.idempotencyKey === row.id)).length;
    });
    if (takenUnmarkedAtKill2 === 0) problems.push("the second kill found no message taken and not marked: it tested nothing");
    say(`second kill with an answer held: ${takenUnmarkedAtKill2} message(s) at WhatsApp whose rows were not marked sent`);

    // 4. Restarted: the rest is sent, the taken one again under its key.
    const third = await restart();
    if (!(await outboxEmptied(third.baseUrl, admin, SWEEP_MS + START_AND_SEND_MS))) problems.push("the restart after the second kill did not send everything");

    // 5. A booking, killed before its reminder; a cancelled booking's reminder withdrawn.
    await book(third.baseUrl, booker!, serviceId, 0, placeOrder);
    await book(third.baseUrl, canceller!, serviceId, 1, placeOrder);
    await outboxEmptied(third.baseUrl, admin, START_AND_SEND_MS);
    await kill();
    smtp.mode = "refuse";
    const refusedBefore = smtp.refused;
    await restart();
    // The start-up sweep writes both reminders; the worker tries them and is refused.
    if (!(await until(() => smtp.refused >= refusedBefore + 2, START_AND_SEND_MS))) problems.push("the reminders were not written and tried after the restart");
    await kill();
    const reminders = await withDatabase(fresh, async (db) => {
      const rows = (await rowsOf(db)).filter((row) => row.template === "booking_reminder");
      await lapseClaims(db, true);
      return rows;
    });
    const reminderOf = (email: string) => reminders.filter((row) => row.recipient === email);
    const cancelled = reminderOf(canceller!.email)[0];
    if (reminderOf(booker!.email).length !== 1 || !cancelled) problems.push(`reminders after the restart: ${reminders.length}, one each expected`);
    const bookingId = (cancelled?.data as { bookingId?: string } | undefined)?.bookingId;
    const fourth = await restart();
    if (bookingId) await post(fourth.baseUrl, "bookings.cancel", canceller!.cookie, { bookingId });
    await kill();
    smtp.mode = "accept";
    await withDatabase(fresh, (db) => lapseClaims(db, true));
    const fifth = await restart();
    if (!(await outboxEmptied(fifth.baseUrl, admin, SWEEP_MS + START_AND_SEND_MS))) problems.push("the reminders' restart did not deliver everything");
    await kill();
    // Once more: the start-up sweep must not write the reminder again.
    const last = await restart();
    await outboxEmptied(last.baseUrl, admin, START_AND_SEND_MS);
    await server?.stop();
    server = undefined;

    return await withDatabase(fresh, async (db) => {
      const rows = await rowsOf(db);
      const whatsappRows = rows.filter((row) => !rowsBefore.has(row.id) && row.channel === "whatsapp");
      const perRow = whatsappRows.map((row) => fake.sent.filter((message) => message.idempotencyKey === row.id).length);
      const consenting = new Set(onWhatsApp.map((_, index) => phoneOf(index).slice(1)));
      const keys = new Set(whatsappRows.map((row) => row.id));
      const unwanted = fake.sent.filter((message) => !consenting.has(message.to) || !message.idempotencyKey || !keys.has(message.idempotencyKey)).length;
      if (whatsappRows.some((row) => !row.sent_at)) problems.push("WhatsApp rows left unsent");
      const bookerReminders = rows.filter((row) => row.template === "booking_reminder" && row.recipient === booker!.email);
      const ids = new Set(bookerReminders.map((row) => outboxMessageId(row.id, SITE_URL)));
      const reminderMessageIds = new Set(smtp.received.filter((mail) => mail.messageId && ids.has(mail.messageId)).map((mail) => mail.messageId)).size;
      const cancelledReminders = smtp.received.filter((mail) => mail.rcptTo.includes(canceller!.email) && /^Reminder/i.test(mail.subject)).length;
      const cancellationMails = smtp.received.filter((mail) => mail.rcptTo.includes(canceller!.email) && /cancelled/i.test(mail.subject)).length;
      if (cancellationMails === 0) problems.push("the cancelled booking's customer got no cancellation mail");
      say(`done: ${whatsappRows.length} WhatsApp notices, ${fake.repeats} repeat(s) recognised; reminder rows ${bookerReminders.length}`);
      return {
        mode: fresh.mode,
        whatsappRows: whatsappRows.length,
        takenAtKill1,
        takenUnmarkedAtKill2,
        repeatsRecognised: fake.repeats,
        missing: perRow.filter((n) => n === 0).length,
        duplicates: perRow.filter((n) => n > 1).length,
        unwanted,
        reminderRows: bookerReminders.length,
        reminderMessageIds,
        cancelledReminders,
        problems,
      };
    });
  } catch (error) {
    if (server) console.error(`[faults] server log:\n${server.log().slice(-4000)}`);
    throw error;
  } finally {
    await server?.kill();
    await smtp.close();
    await fake.close();
  }
}

/** Whether a WhatsApp tally shows a violation; the reasons. */
export function whatsappViolations(tally: WhatsAppTally): string[] {
  const reasons = [...tally.problems];
  for (const key of ["takenAtKill1", "missing", "duplicates", "unwanted", "cancelledReminders"] as const) if (tally[key] > 0) reasons.push(`${key}: ${tally[key]}`);
  if (tally.reminderRows !== 1) reasons.push(`reminderRows: ${tally.reminderRows}, 1 expected`);
  if (tally.reminderMessageIds !== 1) reasons.push(`reminderMessageIds: ${tally.reminderMessageIds}, 1 expected`);
  if (tally.repeatsRecognised < tally.takenUnmarkedAtKill2) reasons.push(`the retries of ${tally.takenUnmarkedAtKill2} taken message(s) were not recognised`);
  return reasons;
}
