import { createClient } from "@supabase/supabase-js";
import { describe, expect, it } from "vitest";
import { ANON, type ScopedDb, type Tx } from "@/server/db/as-caller";
import { createSupabaseStorage } from "@/server/platform/adapters/supabase/supabase-storage";
import { StorageError } from "@/server/ports/storage";

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
    expect(await storage.upload(db, PROOF, new Uint8Array([1, 2, 3]), "image/png", async () => "order-1")).toBe("order-1");
    expect(db.transactions).toBe(1);
    expect(seen.map((call) => `${call.method} ${call.path}`)).toEqual([`POST /storage/v1/object/payments/${PROOF.path}`]);
  });

  it("removes the file again when the write fails, and the write's error comes through", async () => {
    const { storage, seen } = storageWith((method) => (method === "DELETE" ? { status: 200, json: [{ name: PROOF.path }] } : uploaded));
    const failure = new Error("place_order failed");
    const error = await storage
      .upload(callerDb(), PROOF, new Uint8Array([1, 2, 3]), "image/png", async () => {
        throw failure;
      })
      .catch((e: unknown) => e);
    expect(error).toBe(failure);
    expect(seen.map((call) => call.method)).toEqual(["POST", "DELETE"]);
    expect(seen[1]!.path).toBe("/storage/v1/object/payments");
    expect(JSON.parse(seen[1]!.body)).toEqual({ prefixes: [PROOF.path] });
  });

  it("a refused upload is a StorageError ('forbidden') and the write never runs", async () => {
    const { storage, seen } = storageWith(() => ({ status: 403, json: { statusCode: "403", error: "Unauthorized", message: "new row violates row-level security policy" } }));
    const db = callerDb();
    let wrote = false;
    const error = await storage
      .upload(db, PROOF, new Uint8Array([1]), "image/png", async () => {
        wrote = true;
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StorageError);
    expect((error as StorageError).reason).toBe("forbidden");
    expect(wrote).toBe(false);
    expect(db.transactions).toBe(0);
    expect(seen).toHaveLength(1);
  });
});
