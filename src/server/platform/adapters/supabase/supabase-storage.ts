import { createClient, type SupabaseClient } from "@supabase/supabase-js";
import { localFileUrl, StorageError, type StoragePort, type StoredObject } from "@/server/ports/storage";

/**
 * Supabase Storage's public URL of an object, as supabase-js's getPublicUrl builds it: no client
 * needed, so the catalogue (read outside any request) can build image URLs too.
 */
export function supabasePublicUrl(projectUrl: string, object: StoredObject): string {
  const path = object.path.split("/").map(encodeURIComponent).join("/");
  return `${projectUrl.replace(/\/+$/, "")}/storage/v1/object/public/${object.bucket}/${path}`;
}

/**
 * Supabase Storage: uploads go through the Storage API with the caller's own session, so the
 * storage policies of the migrations decide; private files reach their readers as short-lived
 * signed URLs. Direct SQL deletes of storage.objects are blocked on Supabase, so removal uses
 * the API too.
 */
export function createSupabaseStorage(config: {
  url: string;
  /** The request's client, carrying the caller's session. */
  client: SupabaseClient;
  serviceRoleKey?: string;
  signedUrlSeconds?: number;
}): StoragePort {
  const service = () => {
    if (!config.serviceRoleKey) throw new Error("Removing files as the service needs SUPABASE_SERVICE_ROLE_KEY.");
    return createClient(config.url, config.serviceRoleKey, { auth: { autoRefreshToken: false, persistSession: false } });
  };

  return {
    provider: "supabase",
    // The Storage API writes and deletes its own rows as the caller, outside any transaction of
    // ours: the domain writes only the row that names the file.
    rowsWrittenBy: "store",

    async put(object, bytes, contentType) {
      const { error } = await config.client.storage.from(object.bucket).upload(object.path, bytes, { contentType, upsert: false });
      if (error) {
        const status = Number((error as { statusCode?: string | number }).statusCode ?? 0);
        throw new StorageError(error.message, status === 401 || status === 403 ? "forbidden" : "failed");
      }
    },

    async remove(object) {
      const { error } = await config.client.storage.from(object.bucket).remove([object.path]);
      if (error) throw new StorageError(error.message, "failed");
    },

    async removeAsService(objects) {
      const client = service();
      for (const object of objects) {
        const { error } = await client.storage.from(object.bucket).remove([object.path]);
        if (error) throw new StorageError(error.message, "failed");
      }
    },

    publicUrl: (object) => supabasePublicUrl(config.url, object),

    // Supabase Storage cannot draw a PDF page, so the shop does, as local mode does: the file route
    // reads the proof through `read` below, as the caller, and answers its first page as a PNG.
    previewUrl: async (object) => (object.bucket === "payments" ? `${localFileUrl(object)}?preview=1` : null),

    // Files reach browsers as Supabase's own URLs (public or signed); this is for what the shop
    // itself must look at (a proof's preview). Downloaded with the caller's session, so the storage
    // policies decide: another customer's proof is "not found", exactly like a missing one.
    async read(object) {
      const { data, error } = await config.client.storage.from(object.bucket).download(object.path);
      if (error) {
        const status = error.status ?? 0;
        if (status === 400 || status === 401 || status === 403 || status === 404) return null;
        throw new StorageError(error.message, "failed");
      }
      return new Uint8Array(await data.arrayBuffer());
    },

    async privateUrl(object) {
      const { data, error } = await config.client.storage.from(object.bucket).createSignedUrl(object.path, config.signedUrlSeconds ?? 300);
      if (error || !data) throw new StorageError(error?.message ?? "Could not sign the file URL.", "failed");
      return data.signedUrl;
    },
  };
}
