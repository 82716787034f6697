import type { ScopedDb, Tx } from "@/server/db/as-caller";
import { StorageError, type StoragePort, type StoredObject } from "@/server/ports/storage";
import { deleteObjectRow, insertObjectRow } from "./storage-queries";

/** What storing a file as the caller needs: the caller's database and the storage port. */
export interface StorageDeps {
  db: ScopedDb;
  storage: StoragePort;
}

/**
 * The upload-then-write sequence every upload follows (docs/architecture.md#files), both or neither, so a
 * failed request leaves no orphan: the bytes are stored first (outside any transaction: disk and
 * network waits must not hold a database connection), then one transaction of the caller's
 * writes the object's storage.objects row where the domain writes it (local; the storage
 * policies decide) together with `write`, the change that names the file. If that transaction
 * fails the bytes are removed again; the port keeps bytes a committed row still names.
 * A refusal by the store or the policies is a StorageError and comes through as it is (an
 * unexpected failure: the procedure's own message, middlewares/unexpected-errors.ts);
 * `onWriteFailed`, when given, turns what `write` threw into the refusal the caller shows.
 */
export async function storeThenWrite<T>(
  deps: StorageDeps,
  file: { object: StoredObject; bytes: Uint8Array; contentType: string },
  write: (trx: Tx) => Promise<T>,
  onWriteFailed: (cause: unknown) => unknown = (cause) => cause,
): Promise<T> {
  const { db, storage } = deps;
  await storage.put(file.object, file.bytes, file.contentType);
  try {
    return await db.transaction(async (trx) => {
      if (storage.rowsWrittenBy === "domain") await insertObjectRow(trx, file.object, { size: file.bytes.length, mimetype: file.contentType });
      return await write(trx);
    });
  } catch (cause) {
    await storage.remove(file.object).catch((error: unknown) => {
      // Logged, never shown: the caller's error is the write's (the start-up sweep tidies up locally).
      console.error("[storage] could not remove an unused upload:", `${file.object.bucket}/${file.object.path}`, error);
    });
    throw cause instanceof StorageError ? cause : onWriteFailed(cause);
  }
}

/**
 * Removes a file the caller no longer needs, as the caller: its row first where the domain keeps
 * it (the policies decide; a file whose row stays, stays too), then the bytes. A failure is
 * logged, never shown (the sweep tidies up).
 */
export async function removeQuietly(deps: StorageDeps, object: StoredObject, what: string): Promise<void> {
  try {
    if (deps.storage.rowsWrittenBy === "domain" && !(await deps.db.transaction((trx) => deleteObjectRow(trx, object)))) return;
    await deps.storage.remove(object);
  } catch (error) {
    console.error(`[storage] could not remove ${what}:`, `${object.bucket}/${object.path}`, error);
  }
}

let lastStamp = 0;

/**
 * A stored file's name, `{timestamp}_{filename}` (docs/architecture.md#files), with a timestamp this
 * process never hands out twice: two uploads of the same file name in one millisecond (a
 * double-clicked payment) must not collide.
 */
export function timestampedName(fileName: string): string {
  lastStamp = Math.max(Date.now(), lastStamp + 1);
  return `${lastStamp}_${fileName}`;
}
