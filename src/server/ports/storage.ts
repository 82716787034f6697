export type Bucket = "products-services" | "payments" | "avatars" | "personalisation";
export const BUCKETS: readonly Bucket[] = ["products-services", "payments", "avatars", "personalisation"];
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
 * File storage (docs/architecture.md#ports-and-the-platform, #files): moves bytes, never opens the caller's transaction. The
 * storage.objects row that lets a file be seen is written as the caller, so Postgres's storage
 * policies decide who may write where: by the domain in its own transaction next to the row
 * that names the file (local; storage/storage-queries.ts), or by the store itself (Supabase's
 * Storage API, which writes its row under the same policies). storage/store-upload.ts keeps the
 * file and its rows together. Adapters: local disk, or Supabase Storage.
 */
export interface StoragePort {
  readonly provider: "local" | "supabase";
  /**
   * Who writes and deletes an object's storage.objects row: the domain, inside its own
   * transaction as the caller ('domain', local disk), or the store as it stores and removes the
   * bytes ('store', Supabase's Storage API; a second row from the domain would be refused).
   */
  readonly rowsWrittenBy: "domain" | "store";
  /**
   * Stores bytes under the object's final name, never overwriting one (Supabase's Storage API
   * writes the row too, as the caller). A refusal or failure of the store is a StorageError
   * ('forbidden' where the store's policies or the bucket's allowed types refuse).
   */
  put(object: StoredObject, bytes: Uint8Array, contentType: string): Promise<void>;
  /**
   * Removes an object's bytes (a no-op when they are gone). Local: kept while a committed row
   * still names them (the domain deletes the row first). Supabase: through the Storage API as
   * the caller, which removes its row too, under the policies.
   */
  remove(object: StoredObject): Promise<void>;
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
