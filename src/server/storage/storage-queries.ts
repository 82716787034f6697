import { sql } from "kysely";
import type { Tx } from "@/server/db/as-caller";
import { sqlState } from "@/server/db/sql-errors";
import { StorageError, type StoredObject } from "@/server/ports/storage";

/** What storage.objects keeps about a file, in the shape Supabase Storage writes it. */
export interface ObjectMetadata {
  size: number;
  mimetype: string;
}

/**
 * Writes the storage.objects row of a stored file inside the domain's transaction, as its caller:
 * the storage policies decide who may put a file where, as Supabase's Storage API lets them
 * (docs/architecture.md#files). Only where the store does not write its own rows (rowsWrittenBy 'domain').
 * A policy's refusal is a StorageError ('forbidden').
 */
export async function insertObjectRow(trx: Tx, object: StoredObject, metadata: ObjectMetadata): Promise<void> {
  try {
    await trx
      .insertInto("storage.objects")
      .values({
        bucket_id: object.bucket,
        name: object.path,
        // The uploader's id as text, as Storage records it; null for a visitor.
        owner_id: sql<string | null>`(select auth.uid())::text`,
        metadata: JSON.stringify(metadata),
      })
      .execute();
  } catch (error) {
    throw asStorageError(error, "You may not upload files there.") ?? error;
  }
}

/**
 * Deletes a file's storage.objects row as the caller, inside the domain's transaction; false when
 * there was none the policies let the caller delete (a claimed proof, another user's file), and
 * then the file must stay.
 */
export async function deleteObjectRow(trx: Tx, object: StoredObject): Promise<boolean> {
  try {
    const removed = await trx.deleteFrom("storage.objects").where("bucket_id", "=", object.bucket).where("name", "=", object.path).executeTakeFirst();
    return removed.numDeletedRows > 0n;
  } catch (error) {
    throw asStorageError(error, "You may not remove that file.") ?? error;
  }
}

function asStorageError(error: unknown, forbidden: string): StorageError | undefined {
  switch (sqlState(error)) {
    case "42501":
      return new StorageError(forbidden, "forbidden");
    case "23505":
      return new StorageError("A file with that name already exists.", "failed");
    default:
      return undefined;
  }
}

/**
 * A stored object's metadata, or null. A public bucket's files are public by their exact name, as
 * Supabase serves them, while no policy lets anyone list them (migration 20261128000100); a private
 * one's row is read as the caller.
 */
export async function objectMetadata(trx: Tx, object: StoredObject, isPublic: boolean): Promise<unknown> {
  if (isPublic) {
    const { rows } = await sql<{ metadata: unknown }>`select private.public_object(${object.bucket}, ${object.path}) as metadata`.execute(trx);
    return rows[0]?.metadata ?? null;
  }
  const row = await trx.selectFrom("storage.objects").select("metadata").where("bucket_id", "=", object.bucket).where("name", "=", object.path).executeTakeFirst();
  return row?.metadata ?? null;
}
