import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ChangedMigrationError, COMPAT_FILE, MIGRATIONS_DIR, migrate, readMigrations } from "@/server/db/migrate";
import { freshDatabase, type TestDatabase } from "../helpers/database";

let db: TestDatabase;

beforeAll(async () => {
  db = await freshDatabase({ seed: false });
});

afterAll(async () => {
  await db?.close();
});

describe("migrations", () => {
  it("apply every migration on a fresh database and record each", async () => {
    const { rows } = await sql<{ version: string }>`select version from shop_meta.migrations order by version`.execute(db.kysely);
    expect(rows.map((row) => row.version)).toEqual(["00000000000000", ...readMigrations().map((m) => m.version)]);
  });

  it("are safe to run again: nothing is applied twice", async () => {
    expect(await migrate(db.kysely)).toEqual({ applied: [] });
  });

  it("enable row-level security on every table in public", async () => {
    const { rows } = await sql<{ relname: string }>`
      select c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind = 'r' and not c.relrowsecurity`.execute(db.kysely);
    expect(rows).toEqual([]);
  });

  it("create the three storage buckets with the right visibility", async () => {
    const buckets = await db.kysely.selectFrom("storage.buckets").select(["id", "public"]).orderBy("id").execute();
    expect(buckets).toEqual([
      { id: "avatars", public: true },
      { id: "payments", public: false },
      { id: "products-services", public: true },
    ]);
  });

  it("publish orders, cart items and contact messages to realtime", async () => {
    const { rows } = await sql<{ tablename: string }>`
      select tablename from pg_publication_tables where pubname = 'supabase_realtime' order by tablename`.execute(db.kysely);
    expect(rows.map((row) => row.tablename)).toEqual(["cart_items", "contact_messages", "orders"]);
  });

  it.runIf(!process.env.DATABASE_URL)("run the embedded Postgres with small shared buffers (it keeps them in the server's memory)", async () => {
    const { rows } = await sql<{ shared_buffers: string }>`show shared_buffers`.execute(db.kysely);
    expect(rows[0]?.shared_buffers).toBe("32MB");
  });

  it("refuse a migration that changed after it was applied", async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "shop-migrations-"));
    fs.mkdirSync(path.join(root, MIGRATIONS_DIR), { recursive: true });
    fs.mkdirSync(path.dirname(path.join(root, COMPAT_FILE)), { recursive: true });
    fs.copyFileSync(COMPAT_FILE, path.join(root, COMPAT_FILE));
    for (const [index, migration] of readMigrations().entries()) {
      const file = `${migration.version}_${migration.name}.sql`;
      const text = index === 0 ? `${migration.sql}\n-- edited\n` : migration.sql;
      fs.writeFileSync(path.join(root, MIGRATIONS_DIR, file), text);
    }
    await expect(migrate(db.kysely, root)).rejects.toThrow(ChangedMigrationError);
    fs.rmSync(root, { recursive: true, force: true });
  });
});
