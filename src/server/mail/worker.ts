import type { ShopDatabase } from "@/server/db/database";
import type { MailShop } from "./schemas";
import { findOutboxRow } from "./outbox-queries";
import type { MessagingChannel } from "@/server/ports/messaging";
import { BATCH, deliverDue, renderRow, withoutToken, type DeliveryDeps } from "./outbox";

/** Retries and claims left by a crashed process are picked up at least this often. */
export const SWEEP_MS = 15_000;

/**
 * The outbox worker of one server process: delivers as soon as a mail is written (the outbox's
 * NOTIFY, sent on commit) and every SWEEP_MS for retries. Several processes may run one each;
 * `for update skip locked` shares the rows out. Timers never keep Node running. Returns `stop`.
 */
export function startMailWorker(
  database: ShopDatabase,
  deps: Omit<DeliveryDeps, "db" | "whatsapp"> & { whatsapp?: () => Promise<MessagingChannel | undefined> },
  log: Pick<Console, "info" | "error"> = console,
): () => void {
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  const run = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      try {
        do {
          again = false;
          // WhatsApp's settings as they are now: switched on, off or changed in Shop settings.
          const whatsapp = await deps.whatsapp?.();
          // Neither SMTP nor WhatsApp: nothing is sent; the rows wait for the Outbox page.
          if (deps.transport.kind === "none" && !whatsapp) break;
          const report = await deliverDue({ ...deps, whatsapp, db: database.kysely });
          if (report.sent + report.failed > 0) log.info(`[mail] sent ${report.sent}, failed for good ${report.failed}, retrying ${report.retrying}`);
          if (report.claimed >= BATCH) again = true;
        } while (again && !stopped);
      } catch (error) {
        log.error("[mail] delivery round failed:", error instanceof Error ? error.message : error);
      } finally {
        running = undefined;
      }
    })();
  };
  let unlisten: (() => Promise<void>) | undefined;
  void database.listen("mail_outbox", run).then((stop) => {
    if (stopped) void stop();
    else unlisten = stop;
  }, (error: unknown) => log.error("[mail] could not listen for new mails:", error));
  const first = setTimeout(run, 0);
  const timer = setInterval(run, SWEEP_MS);
  first.unref();
  timer.unref();
  return () => {
    stopped = true;
    clearTimeout(first);
    clearInterval(timer);
    void unlisten?.();
  };
}

/**
 * Without SMTP nothing is sent, and nothing pretends to be: the mails stay in the outbox for the
 * admins' Outbox page. In development each new one is also printed to the server log.
 */
export function logNewMails(database: ShopDatabase, shop: () => Promise<MailShop>, log: Pick<Console, "info" | "error"> = console): void {
  void database.listen("mail_outbox", (id) => {
    void (async () => {
      const row = await findOutboxRow(database.kysely, id);
      // A WhatsApp row is not a mail (it goes by e-mail only if the worker reroutes it).
      if (!row || row.channel === "whatsapp") return;
      // Never a link's token in the log: such a mail is shown without it.
      const mail = await renderRow(withoutToken(row), await shop());
      log.info(`[mail] not sent (no SMTP_URL); kept in the outbox:\nTo: ${row.recipient}\nSubject: ${mail.subject}\n\n${mail.text}`);
    })().catch((error: unknown) => log.error("[mail] could not show a new mail:", error instanceof Error ? error.message : error));
  });
}
