import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type pg from "pg";
import { json, type FakeRequest, type FakeResponse } from "./http";
import { bearer, signJwt, verifyJwt, type JwtKeys, type SupabaseClaims } from "./jwt";

/**
 * Supabase Storage as the shop uses it, answering with the Storage API's shapes. Every object
 * row is written, read and deleted in a transaction as the caller (`set local role` and
 * `request.jwt.claims` from the bearer token, as the Storage API does), so the migrations'
 * storage policies decide exactly as on Supabase; bucket lookups and public URLs read as the
 * storage admin. Bytes live in a temporary directory, one file per object id.
 */

interface BucketRow {
  id: string;
  public: boolean;
  file_size_limit: string | number | null;
  allowed_mime_types: string[] | null;
}

interface ObjectRow {
  id: string;
  bucket_id: string;
  name: string;
  owner: string | null;
  owner_id: string | null;
  metadata: { mimetype?: string; size?: number; cacheControl?: string; eTag?: string; lastModified?: string } | null;
  version: string | null;
  created_at: Date | null;
  updated_at: Date | null;
  last_accessed_at: Date | null;
}

/**
 * The Storage API's error: HTTP 400 for anything but a server failure (its `userStatusCode`),
 * with the error's own status as a string in the body, which supabase-js reads as `statusCode`.
 */
class StorageHttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly error: string,
    message: string,
  ) {
    super(message);
  }
}

const ERRORS = {
  noSuchBucket: () => new StorageHttpError(404, "Bucket not found", "Bucket not found"),
  noSuchKey: () => new StorageHttpError(404, "not_found", "Object not found"),
  accessDenied: (message: string) => new StorageHttpError(403, "Unauthorized", message),
  duplicate: () => new StorageHttpError(409, "Duplicate", "The resource already exists"),
  tooLarge: () => new StorageHttpError(413, "Payload too large", "The object exceeded the maximum allowed size"),
  mimeType: (type: string) => new StorageHttpError(415, "invalid_mime_type", `mime type ${type} is not supported`),
  invalidJwt: (message: string) => new StorageHttpError(400, "InvalidJWT", message),
  invalidSignature: () => new StorageHttpError(400, "InvalidSignature", "Invalid signature"),
  expired: () => new StorageHttpError(400, "ExpiredToken", "The provided token has expired."),
};

function pgCode(error: unknown): string | undefined {
  return error && typeof error === "object" && "code" in error && typeof error.code === "string" ? error.code : undefined;
}

/** A Postgres refusal as the Storage API reports it (DBError.fromDBError). */
function fromDatabase(error: unknown): unknown {
  const code = pgCode(error);
  if (code === "42501") return ERRORS.accessDenied("new row violates row-level security policy");
  if (code === "23505") return ERRORS.duplicate();
  return error;
}

function mimeAllowed(allowed: string[] | null, type: string): boolean {
  if (!allowed || allowed.length === 0) return true;
  return allowed.some((pattern) => pattern === type || (pattern.endsWith("/*") && type.startsWith(pattern.slice(0, -1))));
}

/** An object as a test sees it: where it is, whose, what. */
export interface StoredObjectInfo {
  bucket: string;
  name: string;
  ownerId: string | null;
  mimetype: string | null;
  size: number | null;
}

export interface FakeStorage {
  handle(request: FakeRequest): Promise<FakeResponse>;
  /** Every object of a bucket, read past RLS (what the dashboard's Storage browser shows). */
  objects(bucket: string): Promise<StoredObjectInfo[]>;
  /** The objects' bytes, for tests that look at what was stored. */
  root: string;
}

export function createFakeStorage(options: { pool: pg.Pool; keys: JwtKeys; root: string }): FakeStorage {
  const { pool, keys, root } = options;
  fs.mkdirSync(root, { recursive: true });
  const fileOf = (object: Pick<ObjectRow, "id">) => path.join(root, object.id);

  async function claimsOf(request: FakeRequest): Promise<SupabaseClaims> {
    const token = bearer(request.headers.authorization);
    if (!token) throw ERRORS.invalidJwt("headers must have required property 'authorization'");
    const claims = await verifyJwt(keys.secret, token);
    if (!claims) throw ERRORS.invalidJwt("invalid signature");
    return claims;
  }

  /** Runs `work` in a transaction as the token's role with its claims, as the Storage API does. */
  async function asCaller<T>(claims: SupabaseClaims, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const role = claims.role === "service_role" ? "service_role" : claims.role === "authenticated" ? "authenticated" : "anon";
    const client = await pool.connect();
    try {
      await client.query("begin");
      await client.query(`set local role ${role}`);
      await client.query("select set_config('request.jwt.claims', $1, true), set_config('request.jwt.claim.sub', $2, true), set_config('request.jwt.claim.role', $3, true)", [
        JSON.stringify(claims),
        typeof claims.sub === "string" ? claims.sub : "",
        role,
      ]);
      // Storage's own deletes are allowed by the platform's guard against direct SQL deletes.
      await client.query("select set_config('storage.allow_delete_query', 'true', true)");
      const result = await work(client);
      await client.query("commit");
      return result;
    } catch (error) {
      await client.query("rollback").catch(() => {});
      throw fromDatabase(error);
    } finally {
      client.release();
    }
  }

  async function bucket(id: string, filter: { public?: boolean } = {}): Promise<BucketRow> {
    const { rows } = await pool.query<BucketRow>("select id, public, file_size_limit, allowed_mime_types from storage.buckets where id = $1", [id]);
    const found = rows[0];
    if (!found || (filter.public !== undefined && found.public !== filter.public)) throw ERRORS.noSuchBucket();
    return found;
  }

  function serve(object: ObjectRow, request: FakeRequest): FakeResponse {
    const file = fileOf(object);
    if (!fs.existsSync(file)) throw ERRORS.noSuchKey();
    const bytes = fs.readFileSync(file);
    const metadata = object.metadata ?? {};
    const headers: Record<string, string> = {
      "content-type": metadata.mimetype ?? "application/octet-stream",
      "cache-control": metadata.cacheControl ?? "max-age=3600",
      etag: metadata.eTag ?? `"${createHash("md5").update(bytes).digest("hex")}"`,
      "last-modified": new Date(metadata.lastModified ?? object.updated_at ?? Date.now()).toUTCString(),
    };
    const download = request.url.searchParams.get("download");
    if (download !== null) headers["content-disposition"] = `attachment; filename=${JSON.stringify(download || path.basename(object.name))}`;
    return { status: 200, headers, body: request.method === "HEAD" ? Buffer.alloc(0) : bytes };
  }

  /** The uploaded bytes and their type: a raw body, or the `FormData` supabase-js sends for a Blob. */
  async function uploadedFile(request: FakeRequest): Promise<{ bytes: Buffer; contentType: string; cacheControl?: string }> {
    const contentType = String(request.headers["content-type"] ?? "application/octet-stream");
    const raw = await request.body();
    if (!contentType.startsWith("multipart/form-data")) {
      return { bytes: raw, contentType: contentType.split(";")[0]!.trim(), cacheControl: request.headers["cache-control"] };
    }
    const form = await new Response(new Uint8Array(raw), { headers: { "content-type": contentType } }).formData();
    const file = [...form.values()].find((value): value is File => typeof value !== "string");
    if (!file) throw new StorageHttpError(400, "InvalidRequest", "No content provided");
    const cacheControl = form.get("cacheControl");
    return {
      bytes: Buffer.from(await file.arrayBuffer()),
      contentType: file.type || "application/octet-stream",
      cacheControl: typeof cacheControl === "string" ? `max-age=${cacheControl}` : undefined,
    };
  }

  async function upload(request: FakeRequest, bucketId: string, name: string): Promise<FakeResponse> {
    const claims = await claimsOf(request);
    const found = await bucket(bucketId);
    const { bytes, contentType, cacheControl } = await uploadedFile(request);
    // The type is checked from the headers before the body streams; the size as it streams.
    if (!mimeAllowed(found.allowed_mime_types, contentType)) throw ERRORS.mimeType(contentType);
    const limit = found.file_size_limit === null ? null : Number(found.file_size_limit);
    if (limit !== null && bytes.length > limit) throw ERRORS.tooLarge();
    if (String(request.headers["x-upsert"]) === "true") throw new StorageHttpError(400, "InvalidRequest", "The fake Storage does not upsert (the shop never does)");

    const id = randomUUID();
    const version = randomUUID();
    const metadata = {
      eTag: `"${createHash("md5").update(bytes).digest("hex")}"`,
      size: bytes.length,
      mimetype: contentType,
      cacheControl: cacheControl ?? "max-age=3600",
      lastModified: new Date().toISOString(),
      contentLength: bytes.length,
      httpStatusCode: 200,
    };
    const owner = typeof claims.sub === "string" ? claims.sub : null;
    // The bytes first, then the row: a refused row removes them again, as the Storage API does.
    fs.writeFileSync(fileOf({ id }), bytes);
    try {
      await asCaller(claims, (client) =>
        // No RETURNING: the Storage API inserts plainly, so an upload needs INSERT and nothing else.
        client.query(
          `insert into storage.objects (id, bucket_id, name, owner, owner_id, metadata, version)
           values ($1, $2, $3, $4, $5, $6, $7)`,
          [id, bucketId, name, owner && /^[0-9a-f-]{36}$/i.test(owner) ? owner : null, owner, metadata, version],
        ),
      );
    } catch (error) {
      fs.rmSync(fileOf({ id }), { force: true });
      throw error;
    }
    return json(200, { Key: `${bucketId}/${name}`, Id: id });
  }

  async function findAsCaller(claims: SupabaseClaims, bucketId: string, name: string): Promise<ObjectRow> {
    const object = await asCaller(claims, async (client) => {
      const { rows } = await client.query<ObjectRow>("select * from storage.objects where bucket_id = $1 and name = $2", [bucketId, name]);
      return rows[0];
    });
    if (!object) throw ERRORS.noSuchKey();
    return object;
  }

  async function publicObject(request: FakeRequest, bucketId: string, name: string): Promise<FakeResponse> {
    await bucket(bucketId, { public: true });
    const { rows } = await pool.query<ObjectRow>("select * from storage.objects where bucket_id = $1 and name = $2", [bucketId, name]);
    if (!rows[0]) throw ERRORS.noSuchKey();
    return serve(rows[0], request);
  }

  async function sign(request: FakeRequest, bucketId: string, name: string): Promise<FakeResponse> {
    const claims = await claimsOf(request);
    const body = await request.json();
    const expiresIn = Number(body.expiresIn);
    if (!Number.isFinite(expiresIn) || expiresIn < 1) throw new StorageHttpError(400, "InvalidRequest", "body/expiresIn must be >= 1");
    await findAsCaller(claims, bucketId, name);
    const token = await signJwt(keys.secret, { url: `${bucketId}/${name}` }, Math.floor(expiresIn));
    return json(200, { signedURL: `/object/sign/${bucketId}/${name}?token=${token}` });
  }

  async function signed(request: FakeRequest, bucketId: string, name: string): Promise<FakeResponse> {
    const token = request.url.searchParams.get("token");
    if (!token) throw new StorageHttpError(400, "InvalidRequest", "querystring must have required property 'token'");
    const claims = await verifyJwt(keys.secret, token);
    if (!claims) {
      const expired = (() => {
        try {
          const payload = JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString("utf8")) as { exp?: number };
          return typeof payload.exp === "number" && payload.exp * 1000 < Date.now();
        } catch {
          return false;
        }
      })();
      throw expired ? ERRORS.expired() : ERRORS.invalidSignature();
    }
    if (claims.url !== `${bucketId}/${name}`) throw ERRORS.invalidSignature();
    const { rows } = await pool.query<ObjectRow>("select * from storage.objects where bucket_id = $1 and name = $2", [bucketId, name]);
    if (!rows[0]) throw ERRORS.noSuchKey();
    return serve(rows[0], request);
  }

  async function remove(request: FakeRequest, bucketId: string): Promise<FakeResponse> {
    const claims = await claimsOf(request);
    const body = await request.json();
    const prefixes = Array.isArray(body.prefixes) ? body.prefixes.filter((prefix): prefix is string => typeof prefix === "string") : [];
    if (prefixes.length === 0) throw new StorageHttpError(400, "InvalidRequest", "body/prefixes must NOT have fewer than 1 items");
    await bucket(bucketId);
    // Only rows the caller may see and delete go (RLS); the rest are silently left, as on Supabase.
    const removed = await asCaller(claims, async (client) => {
      const { rows } = await client.query<ObjectRow>("delete from storage.objects where bucket_id = $1 and name = any($2::text[]) returning *", [bucketId, prefixes]);
      return rows;
    });
    for (const object of removed) fs.rmSync(fileOf(object), { force: true });
    return json(
      200,
      removed.map((object) => ({
        bucket_id: object.bucket_id,
        name: object.name,
        id: object.id,
        owner: object.owner,
        owner_id: object.owner_id,
        version: object.version,
        metadata: object.metadata,
        created_at: object.created_at?.toISOString(),
        updated_at: object.updated_at?.toISOString(),
        last_accessed_at: object.last_accessed_at?.toISOString(),
      })),
    );
  }

  async function route(request: FakeRequest): Promise<FakeResponse> {
    const { method } = request;
    // Object names arrive URL-encoded per segment (supabase-js encodes each one).
    const match = /^\/object(?:\/(public|sign|authenticated))?\/([^/]+)(?:\/(.+))?$/.exec(request.path);
    if (!match) throw new StorageHttpError(404, "not_found", `Route ${method}:${request.path} not found`);
    const [, kind, rawBucket, rawName] = match;
    const bucketId = decodeURIComponent(rawBucket!);
    const name = rawName ? rawName.split("/").map(decodeURIComponent).join("/") : undefined;
    if (kind === undefined && method === "POST" && name) return upload(request, bucketId, name);
    if (kind === undefined && method === "DELETE" && !name) return remove(request, bucketId);
    if (kind === "public" && (method === "GET" || method === "HEAD") && name) return publicObject(request, bucketId, name);
    if (kind === "sign" && method === "POST" && name) return sign(request, bucketId, name);
    if (kind === "sign" && (method === "GET" || method === "HEAD") && name) return signed(request, bucketId, name);
    if ((kind === "authenticated" || kind === undefined) && (method === "GET" || method === "HEAD") && name) {
      return serve(await findAsCaller(await claimsOf(request), bucketId, name), request);
    }
    throw new StorageHttpError(404, "not_found", `Route ${method}:${request.path} not found`);
  }

  return {
    root,
    async objects(bucketId) {
      const { rows } = await pool.query<ObjectRow>("select * from storage.objects where bucket_id = $1 order by created_at, name", [bucketId]);
      return rows.map((row) => ({ bucket: row.bucket_id, name: row.name, ownerId: row.owner_id, mimetype: row.metadata?.mimetype ?? null, size: row.metadata?.size ?? null }));
    },
    async handle(request) {
      try {
        return await route(request);
      } catch (error) {
        if (error instanceof StorageHttpError) {
          return json(error.statusCode >= 500 ? 500 : 400, { statusCode: String(error.statusCode), error: error.error, message: error.message });
        }
        console.error("[fake-supabase] storage:", error);
        return json(500, { statusCode: "500", error: "internal", message: "Internal Server Error" });
      }
    },
  };
}
