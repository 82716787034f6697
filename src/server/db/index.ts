import path from "node:path";
import { env, runMode, type Env } from "@/env";
import { openDatabase, type ShopDatabase } from "./database";
import { migrate } from "./migrate";
import { seedOnce } from "./seed";

export type { ShopDatabase } from "./database";

/** Whether the demo admin and customer are seeded: development only, never in production. */
export function seedsDemoUsers(config: Env = env): boolean {
  return config.NODE_ENV !== "production" && config.SEED_DEMO_USERS;
}

/**
 * Opens the database for `config`; in the local modes also migrates and seeds it. Supabase's
 * own database is migrated and seeded by the Supabase CLI, never from here.
 */
export async function startDatabase(config: Env = env): Promise<ShopDatabase> {
  const started = performance.now();
  const mode = runMode(config);
  if (mode === "supabase") {
    if (!config.DATABASE_URL) {
      throw new Error(
        "Supabase mode needs DATABASE_URL: the connection string of the Supabase project's Postgres.",
      );
    }
    return openDatabase({ engine: "postgres", connectionString: config.DATABASE_URL });
  }
  const database =
    mode === "postgres"
      ? await openDatabase({ engine: "postgres", connectionString: config.DATABASE_URL ?? "" })
      : await openDatabase({ engine: "pglite", dataDir: path.resolve(config.DATA_DIR) });
  try {
    const { applied } = await migrate(database.kysely);
    const { seeded } = await seedOnce(database.kysely, { demoUsers: seedsDemoUsers(config) });
    if (applied.length > 0 || seeded) {
      const ms = Math.round(performance.now() - started);
      console.info(
        `[db] ${mode}: applied ${applied.length} migration(s)${seeded ? ", seeded the demo data" : ""} in ${ms} ms`,
      );
    }
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}
