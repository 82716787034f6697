import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import { openDatabase } from "@/server/db/database";
import { ChangedMigrationError, COMPAT_FILE, MIGRATIONS_DIR, migrate, readMigrations } from "@/server/db/migrate";
import { CORRECTED_MIGRATIONS } from "@/server/db/migration-corrections";
import { freshDatabase, type TestDatabase } from "../helpers/database";
import { supabasePlatformUrl } from "../helpers/supabase-platform";

// On the Supabase-privileged cluster the platform is there already: no compatibility schema.
const platform = supabasePlatformUrl() ? "supabase" : "compat";

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
    const compat = platform === "supabase" ? [] : ["00000000000000"];
    expect(rows.map((row) => row.version)).toEqual([...compat, ...readMigrations().map((m) => m.version)]);
  });

  it("are safe to run again: nothing is applied twice", async () => {
    expect(await migrate(db.kysely, undefined, { platform })).toEqual({ applied: [] });
  });

  it("enable row-level security on every table in public", async () => {
    const { rows } = await sql<{ relname: string }>`
      select c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind = 'r' and not c.relrowsecurity`.execute(db.kysely);
    expect(rows).toEqual([]);
  });

  it("create the four storage buckets with the right visibility", async () => {
    const buckets = await db.kysely.selectFrom("storage.buckets").select(["id", "public"]).orderBy("id").execute();
    expect(buckets).toEqual([
      { id: "avatars", public: true },
      { id: "payments", public: false },
      { id: "personalisation", public: false },
      { id: "products-services", public: true },
    ]);
  });

  it("publish orders, cart items, contact messages, low-stock notices and quote requests to realtime", async () => {
    const { rows } = await sql<{ tablename: string }>`
      select tablename from pg_publication_tables where pubname = 'supabase_realtime' order by tablename`.execute(db.kysely);
    expect(rows.map((row) => row.tablename)).toEqual(["cart_items", "contact_messages", "low_stock_notices", "orders", "quote_requests"]);
  });

  it.runIf(!process.env.DATABASE_URL && platform === "compat")("run the embedded Postgres with small shared buffers (it keeps them in the server's memory)", async () => {
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
    await expect(migrate(db.kysely, root, { platform })).rejects.toThrow(ChangedMigrationError);
    fs.rmSync(root, { recursive: true, force: true });
  });

  describe("a migration corrected after it was applied (migration-corrections.ts)", () => {
    const FIRST_TEXT = "tests/db/fixtures/20261124000210_cancel_unpaid_orders.first-text.sql";

    it("lists the checksum of the text it replaced, kept here as it was", () => {
      const first = createHash("sha256").update(fs.readFileSync(FIRST_TEXT)).digest("hex");
      expect(CORRECTED_MIGRATIONS["20261124000210"]?.replaces).toContain(first);
    });

    // PGlite: the first text needs a superuser (its SET clause), as the local modes have.
    it.runIf(platform === "compat" && !process.env.DATABASE_URL)(
      "a database that applied the first text still starts, and ends with the corrected function",
      async () => {
        const old = await openDatabase({ engine: "pglite" });
        try {
          const root = fs.mkdtempSync(path.join(os.tmpdir(), "shop-corrected-"));
          fs.mkdirSync(path.join(root, MIGRATIONS_DIR), { recursive: true });
          fs.mkdirSync(path.dirname(path.join(root, COMPAT_FILE)), { recursive: true });
          fs.copyFileSync(COMPAT_FILE, path.join(root, COMPAT_FILE));
          for (const migration of readMigrations().filter((m) => m.version <= "20261124000210")) {
            const file = `${migration.version}_${migration.name}.sql`;
            const text = migration.version === "20261124000210" ? fs.readFileSync(FIRST_TEXT, "utf8") : migration.sql;
            fs.writeFileSync(path.join(root, MIGRATIONS_DIR, file), text);
          }
          await migrate(old.kysely, root);
          fs.rmSync(root, { recursive: true, force: true });
          const config = () =>
            sql<{ config: string[] | null }>`
              select proconfig as config from pg_proc where proname = 'cancel_unpaid_orders'`.execute(old.kysely);
          expect((await config()).rows[0]?.config).toContain("shop.status_reason=");

          const { applied } = await migrate(old.kysely);
          expect(applied).toContain("20261128000000_status_reason_at_run_time.sql");
          expect(applied).not.toContain("20261124000210_cancel_unpaid_orders.sql");
          expect((await config()).rows[0]?.config).toEqual(["search_path=\"\""]);
          const { rows } = await sql<{ checksum: string }>`
            select checksum from shop_meta.migrations where version = '20261124000210'`.execute(old.kysely);
          expect(rows[0]?.checksum).toBe(readMigrations().find((m) => m.version === "20261124000210")?.checksum);
          expect(await migrate(old.kysely)).toEqual({ applied: [] });
        } finally {
          await old.close();
        }
      },
    );
  });
});
