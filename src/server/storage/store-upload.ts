import type { ScopedDb, Tx } from "@/server/db/as-caller";
import { StorageError, type StoragePort, type StoredObject } from "@/server/ports/storage";

/**
 * The upload-then-write sequence every upload follows (ARCHITECTURE §6): stores `bytes` as the
 * caller and runs `write` (the database change that refers to the file) as the caller, both or
 * neither (the storage port's `upload`), so a failed request leaves no orphan.
 * `onStoreFailed`/`onWriteFailed` turn the causes into the errors the caller shows.
 */
export async function storeThenWrite<T>(
  deps: { db: ScopedDb; storage: StoragePort },
  file: { object: StoredObject; bytes: Uint8Array; contentType: string },
  write: (trx: Tx) => Promise<T>,
  errors: { onStoreFailed: (cause: unknown) => Error; onWriteFailed: (cause: unknown) => Error },
): Promise<T> {
  try {
    return await deps.storage.upload(deps.db, file.object, file.bytes, file.contentType, write);
  } catch (cause) {
    throw cause instanceof StorageError ? errors.onStoreFailed(cause) : errors.onWriteFailed(cause);
  }
}

/** Removes a file the caller no longer needs; a failure is logged, never shown (the sweep tidies up). */
export async function removeQuietly(deps: { db: ScopedDb; storage: StoragePort }, object: StoredObject, what: string): Promise<void> {
  try {
    await deps.storage.remove(deps.db, object);
  } catch (error) {
    console.error(`[storage] could not remove ${what}:`, `${object.bucket}/${object.path}`, error);
  }
}

let lastStamp = 0;

/**
 * A stored file's name, `{timestamp}_{filename}` (ARCHITECTURE §6), with a timestamp this
 * process never hands out twice: two uploads of the same file name in one millisecond (a
 * double-clicked payment) must not collide.
 */
export function timestampedName(fileName: string): string {
  lastStamp = Math.max(Date.now(), lastStamp + 1);
  return `${lastStamp}_${fileName}`;
}
