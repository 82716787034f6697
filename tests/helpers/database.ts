import { randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs";
import { sql } from "kysely";
import { inject } from "vitest";
import { openDatabase, type ShopDatabase } from "@/server/db/database";
import { migrate } from "@/server/db/migrate";
import { seedOnce } from "@/server/db/seed";
import type { DbIdentity } from "@/server/db/as-caller";
import { applySchemaFiles } from "./schema-files";
import { createSupabaseDatabase, supabasePlatformUrl } from "./supabase-platform";

export interface TestDatabase extends ShopDatabase {
  /** "pglite", "postgres" or "supabase" (PostgreSQL privileged as Supabase's image): what these tests run on. */
  label: string;
  /** The fresh database's own connection string (PostgreSQL only). */
  connectionString?: string;
}

/**
 * A brand-new, migrated and seeded database for one test file: PGlite in memory by default, or a
 * fresh database on the PostgreSQL server named by DATABASE_URL (dropped again on close).
 * `afterCompat`: SQL run between the compatibility schema and the migrations (see migrate()).
 * `from: "schemas"`: built from the declarative schema (supabase/schemas/) instead of the migrations.
 */
export async function freshDatabase(
  options: { seed?: boolean; afterCompat?: string; from?: "migrations" | "schemas" } = {},
): Promise<TestDatabase> {
  const fromSchemas = options.from === "schemas";
  const serverUrl = process.env.DATABASE_URL;
  let database: ShopDatabase;
  let dropDatabase: (() => Promise<void>) | undefined;
  let connectionString: string | undefined;
  let migrated = false;
  if (supabasePlatformUrl()) {
    // As on Supabase: the platform's schemas owned by its services, migrations applied as the
    // non-superuser postgres, and the tests' own writes made as postgres too.
    const supabase = await createSupabaseDatabase({
      beforeMigrations: options.afterCompat,
      apply: fromSchemas ? (db) => applySchemaFiles(db, { platform: "supabase" }) : undefined,
    });
    connectionString = supabase.postgresUrl;
    database = await openDatabase({ engine: "postgres", connectionString, maxConnections: 60 });
    dropDatabase = () => supabase.close();
    if (options.seed !== false) await seedOnce(database.kysely, { demoUsers: false });
    return {
      ...database,
      label: "supabase",
      connectionString,
      async close() {
        await database.close();
        await dropDatabase?.();
      },
    };
  }
  if (serverUrl) {
    const name = `shop_test_${randomBytes(6).toString("hex")}`;
    const admin = await openDatabase({ engine: "postgres", connectionString: serverUrl, maxConnections: 1 });
    await sql.raw(`create database ${name}`).execute(admin.kysely);
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    connectionString = url.toString();
    database = await openDatabase({ engine: "postgres", connectionString, maxConnections: 60 });
    dropDatabase = async () => {
      await sql.raw(`drop database if exists ${name} with (force)`).execute(admin.kysely);
      await admin.close();
    };
  } else {
    // A copy of the run's migrated template (global-setup.ts) unless SQL must run between the steps.
    const template = options.afterCompat || fromSchemas ? undefined : migratedTemplate();
    database = await openDatabase({ engine: "pglite", loadDataDir: template });
    migrated = template !== undefined;
  }
  if (fromSchemas) {
    if (options.afterCompat) throw new Error("afterCompat applies to the migrations only");
    await applySchemaFiles(database.kysely);
  } else if (!migrated) await migrate(database.kysely, undefined, { afterCompat: options.afterCompat });
  if (options.seed !== false) await seedOnce(database.kysely, { demoUsers: false });
  return {
    ...database,
    label: serverUrl ? "postgres" : "pglite",
    connectionString,
    async close() {
      await database.close();
      await dropDatabase?.();
    },
  };
}

let template: Blob | undefined;
function migratedTemplate(): Blob | undefined {
  if (!inject("migratedPglite")) return undefined; // a run of one file outside vitest's setup
  template ??= new Blob([fs.readFileSync(inject("migratedPglite"))]);
  return template;
}

export interface TestUser {
  id: string;
  email: string;
  identity: DbIdentity;
}

/** Creates an auth user (the sign-up trigger makes the profile) and, if asked, makes them admin. */
export async function createUser(
  db: ShopDatabase,
  options: { role?: "user" | "admin"; fullName?: string; email?: string; passwordHash?: string } = {},
): Promise<TestUser> {
  const id = randomUUID();
  const email = options.email ?? `user-${id.slice(0, 8)}@example.test`;
  await db.kysely
    .insertInto("auth.users")
    .values({
      id,
      aud: "authenticated",
      role: "authenticated",
      email,
      encrypted_password: options.passwordHash ?? null,
      email_confirmed_at: new Date(),
      raw_app_meta_data: JSON.stringify({ provider: "email", providers: ["email"] }),
      raw_user_meta_data: JSON.stringify({ full_name: options.fullName ?? "Test User" }),
      created_at: new Date(),
      updated_at: new Date(),
    })
    .execute();
  if (options.role === "admin") {
    await db.kysely.updateTable("profiles").set({ role: "admin" }).where("id", "=", id).execute();
  }
  return { id, email, identity: { kind: "user", id, email } };
}
