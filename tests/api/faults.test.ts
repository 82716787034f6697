/**
 * Faults a real shop meets, injected at their boundary: the disk fills up during an upload. (The
 * database going away is tests/db/database-outage.test.ts; killing the whole server mid-checkout
 * is `npm run test:faults`, which CI runs against the production build.)
 */
import { randomUUID } from "node:crypto";
import { TRPCError } from "@trpc/server";
import fsp from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { messages } from "@/lib/messages";
import { listObjectFiles } from "@/server/platform/adapters/local/local-storage";
import { isDatabaseUnavailable } from "@/server/db/sql-errors";
import { callerAs, testStorageRoot } from "../helpers/browser";
import { createUser, freshDatabase, type TestDatabase } from "../helpers/database";
import { fileOf, makeNoisyPng } from "../helpers/images";
import { randomReference } from "../helpers/orders";
import { trpcRefusal } from "../helpers/attempt";

let db: TestDatabase;
beforeAll(async () => {
  db = await freshDatabase();
});
afterAll(async () => {
  await db.close();
});

describe("a full disk during an upload", () => {
  it("checkout says so plainly and leaves nothing behind: no order, no file, no row, the cart as it was", async () => {
    const customer = await createUser(db);
    const caller = await callerAs(db, customer);
    const [product] = await db.kysely.selectFrom("products").select("id").where("available", "=", true).limit(1).execute();
    await caller.cart.add({ productId: product!.id });
    const cartBefore = await caller.cart.list();
    const filesBefore = await listObjectFiles(testStorageRoot(db));

    // The disk fills after half the proof is written, as ENOSPC does.
    const realWriteFile = fsp.writeFile;
    const full = vi.spyOn(fsp, "writeFile").mockImplementation(async (file, data, options) => {
      const bytes = data as Uint8Array;
      await realWriteFile(file, bytes.subarray(0, bytes.length / 2), options);
      throw Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });
    });
    try {
      const form = new FormData();
      form.set("proof", fileOf(makeNoisyPng(20 * 1024), "proof.png"));
      form.set("reference", randomReference());
      form.set("idempotencyKey", randomUUID());
      const refused = await trpcRefusal(caller.checkout.placeOrder(form));
      expect(refused.message).toBe(messages.checkout.failed);
    } finally {
      full.mockRestore();
    }

    expect(await listObjectFiles(testStorageRoot(db))).toEqual(filesBefore);
    const rows = await db.kysely.selectFrom("storage.objects").select("name").where("owner_id", "=", customer.id).execute();
    expect(rows).toEqual([]);
    expect(await db.kysely.selectFrom("orders").select("id").where("user_id", "=", customer.id).execute()).toEqual([]);
    expect(await caller.cart.list()).toEqual(cartBefore);
  });
});

describe("recognising an unreachable database", () => {
  it("connection failures and shutdowns count; wrong queries do not", () => {
    expect(isDatabaseUnavailable(Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" }))).toBe(true);
    expect(isDatabaseUnavailable(new TRPCError({ code: "INTERNAL_SERVER_ERROR", cause: Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" }) }))).toBe(true);
    expect(isDatabaseUnavailable(new Error("Connection terminated unexpectedly"))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error("duplicate key"), { code: "23505" }))).toBe(false);
    expect(isDatabaseUnavailable(new Error("cart_empty"))).toBe(false);
  });
});
