import type { ScopedDb, Tx } from "@/server/db/as-caller";

export type Bucket = "products-services" | "payments" | "avatars";
export const BUCKETS: readonly Bucket[] = ["products-services", "payments", "avatars"];
export const PUBLIC_BUCKETS: readonly Bucket[] = ["products-services", "avatars"];

export interface StoredObject {
  bucket: Bucket;
  /** The path inside the bucket, e.g. '{uid}/{timestamp}_{filename}'. */
  path: string;
}

/** A refusal from storage (the caller may not write there, or the write failed). */
export class StorageError extends Error {
  constructor(
    message: string,
    readonly reason: "forbidden" | "failed",
  ) {
    super(message);
    this.name = "StorageError";
  }
}

/** A public bucket object's URL: `/files/...` locally, Supabase Storage's public URL there. */
export type PublicUrl = (object: StoredObject) => string;

/**
 * File storage (ARCHITECTURE §3, §6). Writes run as the caller, so Postgres's storage policies
 * decide who may write where. Adapters: local disk + storage.objects, or Supabase Storage.
 */
export interface StoragePort {
  readonly provider: "local" | "supabase";
  /**
   * Stores bytes as `db`'s caller and runs `write`, the database change that names the file, as
   * the same caller: both stay or neither does. Local storage commits the object's row and
   * `write` in one transaction; Supabase's uploads through its API first and removes the file
   * again if `write` fails. The store's own refusal or failure is a StorageError ('forbidden'
   * where the policies refuse); whatever `write` throws comes through as it is.
   */
  upload<T>(db: ScopedDb, object: StoredObject, bytes: Uint8Array, contentType: string, write: (trx: Tx) => Promise<T>): Promise<T>;
  /** Removes an object as `db`'s caller (a no-op when it is already gone). */
  remove(db: ScopedDb, object: StoredObject): Promise<void>;
  /** Removes objects with full rights: account deletion, rollback by the server. */
  removeAsService(objects: StoredObject[]): Promise<void>;
  /** A URL for a public bucket's object. */
  publicUrl: PublicUrl;
  /** The bytes of an object, for the local file route (Supabase serves its own); null if missing. */
  read(object: StoredObject): Promise<Uint8Array | null>;
  /** A URL for a private object the caller may read: checked (local) or short-lived signed (Supabase). */
  privateUrl(object: StoredObject): Promise<string>;
  /** A PNG of a stored PDF's first page, where this storage can draw one (local); else null. */
  previewUrl(object: StoredObject): Promise<string | null>;
}

/** The URL path under which the local adapter serves files (route src/app/files/[bucket]/[...path]). */
export function localFileUrl(object: StoredObject): string {
  return `/files/${object.bucket}/${object.path.split("/").map(encodeURIComponent).join("/")}`;
}
