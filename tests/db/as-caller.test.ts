/**
 * runAs: each transaction takes its caller's identity (role and JWT claims) exactly, whatever the
 * caller's e-mail holds, and PGlite's `begin` that travels with the first statement changes
 * nothing about what a transaction is.
 */
import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ANON, runAs, stringLiteral } from "@/server/db/as-caller";
import { freshDatabase, type TestDatabase } from "../helpers/database";

let db: TestDatabase;
beforeAll(async () => {
  db = await freshDatabase({ seed: false });
});
afterAll(async () => {
  await db.close();
});

const NASTY = ["o'neil@example.test", "back\\slash@example.test", "\\'; drop table public.products; --", "quote\"d@example.test", "tab\tand\nnewline", "\\u0000 as text", "émoji 🛒 ünïcode", "''", "\\\\"];

describe("runAs", () => {
  it("sets the caller's role and claims exactly, whatever the e-mail holds", async () => {
    for (const email of NASTY) {
      const id = randomUUID();
      const seen = await runAs(db.kysely, { kind: "user", id, email }, async (trx) => {
        const { rows } = await sql<{ role: string; uid: string; email: string; claims: string }>`
          select current_user as role, auth.uid()::text as uid, auth.email() as email, current_setting('request.jwt.claims') as claims`.execute(trx);
        return rows[0]!;
      });
      expect(seen).toMatchObject({ role: "authenticated", uid: id, email });
      expect(JSON.parse(seen.claims)).toMatchObject({ sub: id, email, role: "authenticated" });
    }
    const anon = await runAs(db.kysely, ANON, async (trx) => (await sql<{ role: string; uid: string | null }>`select current_user as role, auth.uid() as uid`.execute(trx)).rows[0]);
    expect(anon).toEqual({ role: "anon", uid: null });
  });

  it("writes string literals Postgres reads back as they were, with standard_conforming_strings on or off", async () => {
    for (const conforming of ["on", "off"]) {
      const read = await db.kysely.transaction().execute(async (trx) => {
        await sql.raw(`set local standard_conforming_strings = ${conforming}`).execute(trx);
        return Promise.all(NASTY.map(async (text) => (await sql.raw<{ text: string }>(`select ${stringLiteral(text)} as text`).execute(trx)).rows[0]!.text));
      });
      expect(read).toEqual(NASTY);
    }
    expect(() => stringLiteral("nul\0")).toThrow(RangeError);
  });

  it("leaves nothing behind: identity and writes end with the transaction, a failure rolls back", async () => {
    const id = randomUUID();
    await expect(
      runAs(db.kysely, { kind: "user", id, email: "x@example.test" }, async (trx) => {
        await sql`create temporary table scratch (n int) on commit drop`.execute(trx);
        throw new Error("stop");
      }),
    ).rejects.toThrow("stop");
    // Straight after, on the same connection: no role, no claims, a transaction of its own.
    const after = await db.kysely.transaction().execute(async (trx) => {
      const { rows } = await sql<{ role: string; claims: string | null }>`select current_user as role, nullif(current_setting('request.jwt.claims', true), '') as claims`.execute(trx);
      return rows[0]!;
    });
    expect(after.role).not.toBe("authenticated");
    expect(after.claims).toBeNull();
    // A transaction whose first statement has parameters begins as well.
    const ids = await db.kysely.transaction().execute(async (trx) => {
      const first = (await sql<{ id: string }>`select txid_current()::text || ${""} as id`.execute(trx)).rows[0]!.id;
      const second = (await sql<{ id: string }>`select txid_current()::text as id`.execute(trx)).rows[0]!.id;
      return [first, second];
    });
    expect(ids[0]).toBe(ids[1]);
  });
});
