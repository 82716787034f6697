import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { sql, type Kysely } from "kysely";
import type { DB } from "./schema";
import { execScript } from "./database";
import { CORRECTED_MIGRATIONS } from "./migration-corrections";

/** Where the SQL lives, relative to the project root. */
export const MIGRATIONS_DIR = "supabase/migrations";
export const COMPAT_FILE = "src/server/db/supabase-compat.sql";
const COMPAT_VERSION = "00000000000000";
const MIGRATION_FILE = /^(\d{14})_([a-z0-9_]+)\.sql$/;

export interface MigrationFile {
  version: string;
  name: string;
  sql: string;
  checksum: string;
}

export class ChangedMigrationError extends Error {
  constructor(file: string) {
    super(
      `Migration ${file} was changed after it was applied to this database. ` +
        "Applied migrations are never edited: restore the file and add a new migration instead.",
    );
  }
}

function checksum(text: string) {
  return createHash("sha256").update(text).digest("hex");
}

/** The migrations on disk, in version order. */
export function readMigrations(root = process.cwd()): MigrationFile[] {
  const dir = path.join(root, MIGRATIONS_DIR);
  return fs
    .readdirSync(dir)
    .filter((file) => file.endsWith(".sql"))
    .sort()
    .map((file) => {
      const match = MIGRATION_FILE.exec(file);
      if (!match) throw new Error(`Migration file name ${file} is not YYYYMMDDHHMMSS_name.sql`);
      const text = fs.readFileSync(path.join(dir, file), "utf8");
      return { version: match[1]!, name: match[2]!, sql: text, checksum: checksum(text) };
    });
}

export interface MigrateResult {
  applied: string[];
}

export interface MigrateOptions {
  /**
   * SQL run once the compatibility schema is in place and before any pending migration, in the
   * same transaction. For tests that start from a stricter platform than the compatibility
   * schema gives, e.g. a Supabase project without default privileges for new tables.
   */
  afterCompat?: string;
  /**
   * "supabase": the database already has Supabase's platform (or the tests' stand-in for it,
   * tests/supabase-platform/), so no compatibility schema is applied: only the migrations, as
   * the caller (on Supabase, the non-superuser `postgres`).
   */
  platform?: "compat" | "supabase";
}

/**
 * Local modes only: applies the Supabase compatibility schema, then every migration not yet
 * applied, recording each with its checksum. Everything runs in one transaction under an
 * advisory lock, so two processes starting at once cannot both migrate, and a failure leaves
 * the database as it was. Safe to call on every start.
 */
export async function migrate(db: Kysely<DB>, root = process.cwd(), options: MigrateOptions = {}): Promise<MigrateResult> {
  const compatSql = fs.readFileSync(path.join(root, COMPAT_FILE), "utf8");
  const compat: MigrationFile = {
    version: COMPAT_VERSION,
    name: "supabase_compat",
    sql: compatSql,
    checksum: checksum(compatSql),
  };
  const migrations = readMigrations(root);

  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtextextended('shop_meta.migrate', 0))`.execute(trx);
    await execScript(
      trx,
      `create schema if not exists shop_meta;
       create table if not exists shop_meta.migrations (
         version text primary key,
         name text not null,
         checksum text not null,
         applied_at timestamptz not null default now()
       );`,
    );
    const { rows } = await sql<{ version: string; checksum: string }>`
      select version, checksum from shop_meta.migrations`.execute(trx);
    const done = new Map(rows.map((row) => [row.version, row.checksum]));
    const applied: string[] = [];

    // The compatibility schema is idempotent by design, so a changed one is simply re-applied.
    if (options.platform !== "supabase" && done.get(compat.version) !== compat.checksum) {
      await execScript(trx, compat.sql);
      await sql`
        insert into shop_meta.migrations (version, name, checksum)
        values (${compat.version}, ${compat.name}, ${compat.checksum})
        on conflict (version) do update set checksum = excluded.checksum, applied_at = now()`.execute(trx);
      applied.push(`${compat.version}_${compat.name}`);
    }
    if (options.afterCompat) await execScript(trx, options.afterCompat);

    for (const migration of migrations) {
      const file = `${migration.version}_${migration.name}.sql`;
      const previous = done.get(migration.version);
      if (previous === migration.checksum) continue;
      if (previous !== undefined && CORRECTED_MIGRATIONS[migration.version]?.replaces.includes(previous)) {
        // Applied in its first text; a later migration brings this database to the corrected one.
        await sql`
          update shop_meta.migrations set checksum = ${migration.checksum}
          where version = ${migration.version}`.execute(trx);
        continue;
      }
      if (previous !== undefined) throw new ChangedMigrationError(file);
      await execScript(trx, migration.sql);
      await sql`
        insert into shop_meta.migrations (version, name, checksum)
        values (${migration.version}, ${migration.name}, ${migration.checksum})`.execute(trx);
      applied.push(file);
    }
    return { applied };
  });
}
