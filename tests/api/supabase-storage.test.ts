import { createClient } from "@supabase/supabase-js";
import { describe, expect, it } from "vitest";
import { ANON, type ScopedDb, type Tx } from "@/server/db/as-caller";
import { createSupabaseStorage } from "@/server/platform/adapters/supabase/supabase-storage";
import { StorageError } from "@/server/ports/storage";
import { servePdfPreview } from "@/server/storage/serve-preview";
import { storeThenWrite } from "@/server/storage/store-upload";
import { makeProofPdf } from "../helpers/pdfs";

/**
 * The Supabase storage adapter against Supabase Storage's HTTP answers: an upload and the write
 * that names the file are both kept or neither (the Storage API writes its own row, so a failed
 * write means the file is removed again), and a refused upload never runs the write.
 */
const PROJECT = "https://project.supabase.co";
const PROOF = { bucket: "payments" as const, path: "6f1c2a10-3b4d-4e5f-8a01-00000000abcd/1795478363184_proof.png" };

function storageWith(answer: (method: string, path: string) => { status: number; json: unknown }) {
  const seen: { method: string; path: string; body: string }[] = [];
  const fetchStub: typeof fetch = async (input, init) => {
    const url = new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url);
    const method = init?.method ?? "GET";
    seen.push({ method, path: decodeURIComponent(url.pathname), body: typeof init?.body === "string" ? init.body : "" });
    const { status, json } = answer(method, url.pathname);
    return new Response(JSON.stringify(json), { status, headers: { "content-type": "application/json" } });
  };
  const client = createClient(PROJECT, "anon-key", { auth: { persistSession: false, autoRefreshToken: false }, global: { fetch: fetchStub } });
  return { storage: createSupabaseStorage({ url: PROJECT, client }), seen };
}

/** The caller's database, counting the transactions the write ran in (the write here needs no SQL). */
function callerDb() {
  const db = {
    transactions: 0,
    identity: ANON,
    transaction<T>(work: (trx: Tx) => Promise<T>): Promise<T> {
      db.transactions++;
      return work({} as Tx);
    },
  };
  return db satisfies ScopedDb;
}

const uploaded = { status: 200, json: { Key: `payments/${PROOF.path}`, Id: "0b6c" } };

describe("Supabase storage: an upload with the write that names it", () => {
  it("uploads, then runs the write in the caller's transaction, and keeps both", async () => {
    const { storage, seen } = storageWith(() => uploaded);
    const db = callerDb();
    expect(await storeThenWrite({ db, storage }, { object: PROOF, bytes: new Uint8Array([1, 2, 3]), contentType: "image/png" }, async () => "order-1")).toBe("order-1");
    // One transaction, holding the write alone: the Storage API wrote the object's row (the fake
    // transaction has no SQL, so a second row from the domain would fail here).
    expect(db.transactions).toBe(1);
    expect(seen.map((call) => `${call.method} ${call.path}`)).toEqual([`POST /storage/v1/object/payments/${PROOF.path}`]);
  });

  it("removes the file again when the write fails, and the write's error comes through", async () => {
    const { storage, seen } = storageWith((method) => (method === "DELETE" ? { status: 200, json: [{ name: PROOF.path }] } : uploaded));
    const failure = new Error("place_order failed");
    const error = await storeThenWrite({ db: callerDb(), storage }, { object: PROOF, bytes: new Uint8Array([1, 2, 3]), contentType: "image/png" }, async () => {
      throw failure;
    }).catch((e: unknown) => e);
    expect(error).toBe(failure);
    expect(seen.map((call) => call.method)).toEqual(["POST", "DELETE"]);
    expect(seen[1]!.path).toBe("/storage/v1/object/payments");
    expect(JSON.parse(seen[1]!.body)).toEqual({ prefixes: [PROOF.path] });
  });

  it("a refused upload is a StorageError ('forbidden') and the write never runs", async () => {
    const { storage, seen } = storageWith(() => ({ status: 403, json: { statusCode: "403", error: "Unauthorized", message: "new row violates row-level security policy" } }));
    const db = callerDb();
    let wrote = false;
    const error = await storeThenWrite({ db, storage }, { object: PROOF, bytes: new Uint8Array([1]), contentType: "image/png" }, async () => {
      wrote = true;
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StorageError);
    expect((error as StorageError).reason).toBe("forbidden");
    expect(wrote).toBe(false);
    expect(db.transactions).toBe(0);
    expect(seen).toHaveLength(1);
  });
});

/**
 * A PDF proof's first page for admins in Supabase mode: the shop downloads the proof through the
 * Storage API with the caller's session (the storage policies decide, as for signed URLs) and
 * draws the page itself, as local mode does.
 */
describe("Supabase storage: a PDF proof's preview", () => {
  const PDF_PROOF = { bucket: "payments" as const, path: "6f1c2a10-3b4d-4e5f-8a01-00000000abcd/1795478363184_proof.pdf" };

  /** Storage answering downloads: `files` by object path for the caller whose token is `callerToken`. */
  function downloadsFor(files: Record<string, Uint8Array>, callerToken: string) {
    const seen: { method: string; path: string; authorization: string | null }[] = [];
    const fetchStub: typeof fetch = async (input, init) => {
      const url = new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url);
      const authorization = new Headers(init?.headers).get("authorization");
      seen.push({ method: init?.method ?? "GET", path: decodeURIComponent(url.pathname), authorization });
      const file = files[decodeURIComponent(url.pathname)];
      // Storage answers a file the policies hide exactly like a missing one.
      if (!file || authorization !== `Bearer ${callerToken}`) {
        return new Response(JSON.stringify({ statusCode: "404", error: "not_found", message: "Object not found" }), { status: 400, headers: { "content-type": "application/json" } });
      }
      return new Response(Buffer.from(file), { status: 200, headers: { "content-type": "application/pdf" } });
    };
    return {
      seen,
      /** The storage port of a request by the caller holding `token`. */
      as(token: string) {
        const client = createClient(PROJECT, "anon-key", {
          auth: { persistSession: false, autoRefreshToken: false },
          global: { fetch: fetchStub, headers: { Authorization: `Bearer ${token}` } },
        });
        return createSupabaseStorage({ url: PROJECT, client });
      },
    };
  }

  it("is served by the shop under /files, for proofs only", async () => {
    const { storage } = storageWith(() => ({ status: 500, json: {} }));
    expect(await storage.previewUrl(PDF_PROOF)).toBe(`/files/payments/${PDF_PROOF.path}?preview=1`);
    expect(await storage.previewUrl({ bucket: "avatars", path: "6f1c2a10-3b4d-4e5f-8a01-00000000abcd/me.png" })).toBeNull();
  });

  it("reads the proof through the Storage API as the caller", async () => {
    const pdf = new Uint8Array(makeProofPdf());
    const store = downloadsFor({ [`/storage/v1/object/payments/${PDF_PROOF.path}`]: pdf }, "admin-jwt");
    expect(await store.as("admin-jwt").read(PDF_PROOF)).toEqual(pdf);
    expect(store.seen).toEqual([{ method: "GET", path: `/storage/v1/object/payments/${PDF_PROOF.path}`, authorization: "Bearer admin-jwt" }]);
    // Another customer's session: Storage says "not found", and so does the port.
    expect(await store.as("other-customer-jwt").read(PDF_PROOF)).toBeNull();
  });

  it("draws the first page as a PNG for a caller the policies let read it, and nothing for anyone else", async () => {
    const store = downloadsFor({ [`/storage/v1/object/payments/${PDF_PROOF.path}`]: new Uint8Array(makeProofPdf({ pages: 2 })) }, "admin-jwt");
    const segments = PDF_PROOF.path.split("/");

    const preview = await servePdfPreview(store.as("admin-jwt"), "payments", segments);
    expect(preview.status).toBe(200);
    expect(preview.headers.get("content-type")).toBe("image/png");
    expect(preview.headers.get("cache-control")).toBe("private, no-store");
    expect(preview.headers.get("content-security-policy")).toBe("default-src 'none'; sandbox");
    const png = new Uint8Array(await preview.arrayBuffer());
    expect([...png.slice(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

    expect((await servePdfPreview(store.as("other-customer-jwt"), "payments", segments)).status).toBe(404);
  });

  it("draws nothing that is not a proof PDF the shop would have accepted, nor outside the payments bucket", async () => {
    const paths = {
      image: "u/1_proof.png",
      active: "u/2_proof.pdf",
    };
    const store = downloadsFor(
      {
        [`/storage/v1/object/payments/${paths.image}`]: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
        // Uploaded straight through the Storage API, past the shop's checks: a PDF that runs a script.
        [`/storage/v1/object/payments/${paths.active}`]: new Uint8Array(makeProofPdf({ catalog: "/OpenAction 7 0 R", extra: () => ["<< /S /JavaScript /JS (app.alert(1)) >>"] })),
      },
      "admin-jwt",
    );
    const storage = store.as("admin-jwt");
    expect((await servePdfPreview(storage, "payments", paths.image.split("/"))).status).toBe(404);
    expect((await servePdfPreview(storage, "payments", paths.active.split("/"))).status).toBe(404);
    const before = store.seen.length;
    expect((await servePdfPreview(storage, "avatars", ["u", "x.pdf"])).status).toBe(404);
    expect((await servePdfPreview(storage, "payments", ["u", "..", "..", "avatars", "x.pdf"])).status).toBe(404);
    expect(store.seen).toHaveLength(before);
  });
});
