import { purgeExpired, unusedPersonalisationFiles } from "./privacy-queries";
import type { ShopDatabase } from "@/server/db/database";
import type { StoragePort } from "@/server/ports/storage";

/** Once a day: records are kept for years or months, so a day late is no later in any sense that matters. */
export const RETENTION_CHECK_MS = 24 * 3600_000;

/**
 * Deletes what the privacy notice says is kept no longer (orders and proofs after 5 years,
 * messages and mails after 12 months) and removes the deleted orders' proof files, and the
 * personalisation files (logos) no cart or order line names a week after their upload (those of
 * the deleted orders included). Returns how many orders went.
 */
export async function purgeExpiredRecords(database: Pick<ShopDatabase, "kysely">, storage: Pick<StoragePort, "removeAsService">): Promise<number> {
  const rows = await purgeExpired(database.kysely);
  const proofs = rows.flatMap((row) => [row.proof_path, row.balance_proof_path].flatMap((path) => (path ? [{ bucket: "payments" as const, path }] : [])));
  const unused = (await unusedPersonalisationFiles(database.kysely)).map((path) => ({ bucket: "personalisation" as const, path }));
  const files = [...proofs, ...unused];
  if (files.length > 0) await storage.removeAsService(files);
  return rows.length;
}

/** Runs the purge at start and then daily, on an unref'd timer; failures are logged and retried next time. */
export function startRetentionTimer(database: Pick<ShopDatabase, "kysely">, storage: () => Pick<StoragePort, "removeAsService">, log: Pick<Console, "info" | "error"> = console): () => void {
  const run = () =>
    void purgeExpiredRecords(database, storage()).then(
      (orders) => {
        if (orders > 0) log.info(`[privacy] deleted ${orders} order(s) past the record-keeping period, with their proofs`);
      },
      (error: unknown) => log.error("[privacy] purging expired records failed:", error instanceof Error ? error.message : error),
    );
  const first = setTimeout(run, 5_000);
  const timer = setInterval(run, RETENTION_CHECK_MS);
  first.unref();
  timer.unref();
  return () => {
    clearTimeout(first);
    clearInterval(timer);
  };
}
