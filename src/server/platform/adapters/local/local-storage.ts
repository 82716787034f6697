import fs from "node:fs/promises";
import path from "node:path";
import { sql, type Kysely } from "kysely";
import type { DB } from "@/server/db/schema";
import { BUCKETS, localFileUrl, StorageError, type Bucket, type StoragePort, type StoredObject } from "@/server/ports/storage";

const SAFE_SEGMENT = /^[A-Za-z0-9._-]+$/;

/** Where an object's bytes live on disk; refuses any path that could leave the bucket folder. */
export function objectFile(root: string, object: StoredObject): string {
  const segments = object.path.split("/");
  if (segments.length === 0 || segments.some((s) => !SAFE_SEGMENT.test(s) || s === "." || s === "..")) {
    throw new StorageError("That file path is not allowed.", "forbidden");
  }
  return path.join(root, object.bucket, ...segments);
}

interface BucketRules {
  allowedTypes: string[] | null;
  sizeLimit: number | null;
}

/**
 * Each bucket's type and size limits, read once per database handle: buckets are made and
 * changed by migrations only, which run before the shop serves anything (one statement less per
 * upload, and checkout is the shop's busiest write).
 */
const bucketRules = new WeakMap<Kysely<DB>, Map<Bucket, Promise<BucketRules | undefined>>>();

function rulesOf(serviceDb: Kysely<DB>, bucket: Bucket): Promise<BucketRules | undefined> {
  let known = bucketRules.get(serviceDb);
  if (!known) bucketRules.set(serviceDb, (known = new Map()));
  let rules = known.get(bucket);
  if (!rules) {
    rules = serviceDb
      .selectFrom("storage.buckets")
      .select(["allowed_mime_types", "file_size_limit"])
      .where("id", "=", bucket)
      .executeTakeFirst()
      .then((row) => row && { allowedTypes: row.allowed_mime_types, sizeLimit: row.file_size_limit === null ? null : Number(row.file_size_limit) });
    // A failed read is not kept: the next upload asks again.
    rules.catch(() => known.delete(bucket));
    known.set(bucket, rules);
  }
  return rules;
}

/**
 * Local storage: bytes on disk under `root` (DATA_DIR/storage). The storage.objects row that
 * makes a file visible is the domain's to write, as the caller in its own transaction
 * (storage/storage-queries.ts), so the same storage policies as Supabase decide; the file is written
 * before that transaction and removed again if its row does not commit.
 */
export function createLocalStorage(root: string, serviceDb: Kysely<DB>): StoragePort {
  return {
    provider: "local",
    rowsWrittenBy: "domain",

    async put(object, bytes, contentType) {
      // The bucket's own limits, as Supabase Storage applies them (type and size).
      const bucket = await rulesOf(serviceDb, object.bucket);
      if (!bucket) throw new StorageError("That bucket does not exist.", "failed");
      if (bucket.allowedTypes && !bucket.allowedTypes.includes(contentType)) throw new StorageError(`${contentType} is not allowed in ${object.bucket}.`, "forbidden");
      if (bucket.sizeLimit !== null && bytes.length > bucket.sizeLimit) throw new StorageError("The file is larger than the bucket allows.", "failed");
      const file = objectFile(root, object);
      await fs.mkdir(path.dirname(file), { recursive: true });
      // Under its own name at once: names are never reused ('wx' refuses one that exists), and a
      // file is served only through its row, so nobody sees it before the row commits; the disk
      // work stays out of the row's transaction, which on PGlite holds the database's one connection.
      try {
        await fs.writeFile(file, bytes, { flag: "wx" });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "EEXIST") throw new StorageError("A file with that name already exists.", "failed");
        // Written part-way (a full disk): what was written goes.
        await fs.rm(file, { force: true });
        throw error;
      }
    },

    async remove(object) {
      const file = objectFile(root, object);
      // A committed row keeps its file: after a commit whose answer was lost, or a row the
      // caller's policies would not let go, the row (and whatever names it) still needs the bytes.
      if (!(await rowExists(serviceDb, object))) await fs.rm(file, { force: true });
    },

    async removeAsService(objects) {
      for (const object of objects) {
        await serviceDb.deleteFrom("storage.objects").where("bucket_id", "=", object.bucket).where("name", "=", object.path).execute();
        await fs.rm(objectFile(root, object), { force: true });
      }
    },

    publicUrl: (object) => localFileUrl(object),
    privateUrl: async (object) => localFileUrl(object),
    previewUrl: async (object) => `${localFileUrl(object)}?preview=1`,
    read: async (object) => (await readObjectFile(root, object)) ?? null,
  };
}

async function rowExists(db: Kysely<DB>, object: StoredObject) {
  const row = await db
    .selectFrom("storage.objects")
    .select("id")
    .where("bucket_id", "=", object.bucket)
    .where("name", "=", object.path)
    .executeTakeFirst();
  return row !== undefined;
}

/** Reads an object's bytes for the file route, after the caller's access was checked. */
export async function readObjectFile(root: string, object: StoredObject): Promise<Uint8Array | undefined> {
  try {
    return await fs.readFile(objectFile(root, object));
  } catch {
    return undefined;
  }
}

/** Every stored file under `root`, as bucket/path (for orphan checks in tests and tools). */
export async function listObjectFiles(root: string): Promise<string[]> {
  try {
    const entries = await fs.readdir(root, { recursive: true, withFileTypes: true });
    return entries.filter((e) => e.isFile()).map((e) => path.relative(root, path.join(e.parentPath, e.name)));
  } catch {
    return [];
  }
}

/**
 * After a crash: removes what an interrupted upload can leave behind, older than `cutoff`.
 * - storage.objects rows that nothing points to: a proof no order claims, an avatar no profile
 *   shows, a product image no product or product picture uses (an upload's row commits with the
 *   write that points to it, but a replaced picture or image, or a double click's second proof,
 *   is removed only after that commit, and a crash in between leaves exactly these);
 * - files with no row (a file is written before its row's transaction: a crash in between, or
 *   during the write), and the half-written `.partial` files of earlier versions.
 * Runs at start-up, before any request, with the service role; returns what it removed.
 */
export async function sweepUnclaimedUploads(root: string, db: Kysely<DB>, cutoff: Date): Promise<{ rows: number; files: number }> {
  const { rows } = await sql<{ bucket_id: Bucket; name: string }>`
    delete from storage.objects o
    where o.created_at < ${cutoff}
      and (
        (o.bucket_id = 'payments' and not exists (select 1 from public.orders r where r.proof_path = o.name or r.balance_proof_path = o.name))
        or (o.bucket_id = 'avatars' and not exists (select 1 from public.profiles r where r.avatar_path = o.name))
        or (o.bucket_id = 'products-services' and not exists (select 1 from public.products r where r.image_path = o.name)
            and not exists (select 1 from public.product_images r where r.path = o.name))
      )
    returning o.bucket_id, o.name`.execute(db);
  let files = 0;
  for (const row of rows) {
    if (await removeFile(objectFile(root, { bucket: row.bucket_id, path: row.name }))) files++;
  }
  for (const relative of await listObjectFiles(root)) {
    const file = path.join(root, relative);
    const stat = await fs.stat(file).catch(() => undefined);
    if (!stat || stat.mtime >= cutoff) continue;
    const [bucket, ...segments] = relative.split(path.sep) as [Bucket, ...string[]];
    const stray = file.endsWith(".partial") || !BUCKETS.includes(bucket);
    if (stray || !(await rowExists(db, { bucket, path: segments.join("/") }))) {
      if (await removeFile(file)) files++;
    }
  }
  return { rows: rows.length, files };
}

async function removeFile(file: string): Promise<boolean> {
  try {
    await fs.rm(file);
    return true;
  } catch {
    return false;
  }
}
