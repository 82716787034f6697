import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { sql } from "kysely";
import { execScript, openDatabase, type ShopDatabase } from "@/server/db/database";
import { COMPAT_FILE, migrate } from "@/server/db/migrate";

/**
 * A fresh database privileged the way Supabase's image is (docs/architecture.md#supabase-is-not-a-superuser), on the cluster
 * scripts/supabase-postgres.sh prepares (SUPABASE_ADMIN_URL: its superuser, supabase_admin):
 * the platform's schemas owned by supabase_auth_admin and supabase_storage_admin, and every
 * migration applied as `postgres`, which is not a superuser; then, if asked, the seeds
 * `supabase start` runs (supabase/seed.sql, supabase/seed-demo-users.sql), also as postgres.
 */
export interface SupabaseDatabase {
  name: string;
  /** As `postgres` (not a superuser, bypasses RLS): what the shop's DATABASE_URL is on Supabase. */
  postgresUrl: string;
  /** As the services' own roles, for fakes of Supabase Auth and Storage. */
  authAdminUrl: string;
  storageAdminUrl: string;
  /** As supabase_admin, the cluster's superuser. */
  adminUrl: string;
  close(): Promise<void>;
}

export const PLATFORM_FILE = "tests/supabase-platform/platform.sql";
export const SUPABASE_SEEDS = ["supabase/seed.sql", "supabase/seed-demo-users.sql"];

/** Whether this run applies the migrations as Supabase does (SUPABASE_ADMIN_URL set). */
export function supabasePlatformUrl(): string | undefined {
  return process.env.SUPABASE_ADMIN_URL || undefined;
}

function withDatabase(url: string, name: string, user?: string): string {
  const target = new URL(url);
  target.pathname = `/${name}`;
  if (user) {
    target.username = user;
    target.password = "postgres";
  }
  return target.toString();
}

export async function createSupabaseDatabase(
  options: {
    seeds?: boolean;
    adminUrl?: string;
    root?: string;
    beforeMigrations?: string;
    /** Instead of the migrations, as postgres: e.g. the declarative schema (tests/helpers/schema-files.ts). */
    apply?: (db: ShopDatabase["kysely"]) => Promise<void>;
  } = {},
): Promise<SupabaseDatabase> {
  const serverUrl = options.adminUrl ?? supabasePlatformUrl();
  if (!serverUrl) throw new Error("SUPABASE_ADMIN_URL is not set: run `eval \"$(scripts/supabase-postgres.sh)\"` first.");
  const root = options.root ?? process.cwd();
  const name = `shop_supabase_${randomBytes(6).toString("hex")}`;
  const server = await openDatabase({ engine: "postgres", connectionString: serverUrl, maxConnections: 1 });
  await sql.raw(`create database ${name} owner postgres`).execute(server.kysely);
  const drop = async () => {
    await sql.raw(`drop database if exists ${name} with (force)`).execute(server.kysely);
    await server.close();
  };

  try {
    // The platform, as the image has it before any migration: created by the superuser.
    const platform = await openDatabase({ engine: "postgres", connectionString: withDatabase(serverUrl, name), maxConnections: 1 });
    try {
      await platform.kysely.transaction().execute(async (trx) => {
        await execScript(trx, fs.readFileSync(path.join(root, COMPAT_FILE), "utf8"));
        await execScript(trx, fs.readFileSync(path.join(root, PLATFORM_FILE), "utf8"));
      });
    } finally {
      await platform.close();
    }

    const postgresUrl = withDatabase(serverUrl, name, "postgres");
    const owner = await openDatabase({ engine: "postgres", connectionString: postgresUrl, maxConnections: 1 });
    try {
      if (options.beforeMigrations) await execScript(owner.kysely, options.beforeMigrations);
      if (options.apply) await options.apply(owner.kysely);
      else await migrate(owner.kysely, root, { platform: "supabase" });
      if (options.seeds) {
        for (const seed of SUPABASE_SEEDS) await execScript(owner.kysely, fs.readFileSync(path.join(root, seed), "utf8"));
      }
    } finally {
      await owner.close();
    }
    return {
      name,
      postgresUrl,
      authAdminUrl: withDatabase(serverUrl, name, "supabase_auth_admin"),
      storageAdminUrl: withDatabase(serverUrl, name, "supabase_storage_admin"),
      adminUrl: withDatabase(serverUrl, name),
      close: drop,
    };
  } catch (error) {
    await drop();
    throw error;
  }
}

/** Opens a database made by createSupabaseDatabase as `postgres`, as the shop's server does. */
export async function openAsPostgres(database: SupabaseDatabase, maxConnections = 60): Promise<ShopDatabase> {
  return openDatabase({ engine: "postgres", connectionString: database.postgresUrl, maxConnections });
}
