/**
 * Grants or revokes the admin role:  npm run admin -- grant <email>  |  npm run admin -- revoke <email>
 * Works in every run mode. In the embedded mode PGlite allows one process per data directory, so
 * while the shop is running this refuses with a clear message instead of opening it twice.
 */
import nextEnv from "@next/env";
import { shopRunningMessage } from "./lib/data-dir-cli";
import { runCli } from "./lib/run-cli";

nextEnv.loadEnvConfig(process.cwd());

const USAGE = "Usage: npm run admin -- grant <email>\n       npm run admin -- revoke <email>";

async function main(): Promise<number> {
  const [command, rawEmail, ...rest] = process.argv.slice(2);
  if ((command !== "grant" && command !== "revoke") || !rawEmail || rest.length > 0) {
    console.error(USAGE);
    return 2;
  }
  const email = rawEmail.trim().toLowerCase();

  const path = await import("node:path");
  const { env, runMode } = await import("@/env");
  const { dataDirHolder, openDatabase } = await import("@/server/db/database");
  const { migrate } = await import("@/server/db/migrate");
  const { sql } = await import("kysely");

  const mode = runMode();
  let database;
  if (mode === "embedded") {
    const dataDir = path.resolve(env.DATA_DIR);
    const holder = dataDirHolder(dataDir);
    if (holder !== undefined) {
      console.error(shopRunningMessage(dataDir, holder, "run this command again"));
      return 1;
    }
    database = await openDatabase({ engine: "pglite", dataDir });
  } else {
    if (!env.DATABASE_URL) {
      console.error("Supabase mode needs DATABASE_URL (the project's Postgres) for this command.");
      return 1;
    }
    database = await openDatabase({ engine: "postgres", connectionString: env.DATABASE_URL, maxConnections: 1 });
  }

  try {
    if (mode !== "supabase") await migrate(database.kysely);
    const role = command === "grant" ? "admin" : "user";
    const result = await database.kysely
      .updateTable("profiles")
      .set({ role })
      .where(sql<string>`lower(email)`, "=", email)
      .returning(["email", "role"])
      .executeTakeFirst();
    if (!result) {
      console.error(`No account with the email ${email}. Sign up first, then run this again.`);
      return 1;
    }
    console.log(command === "grant" ? `${result.email} is now an admin.` : `${result.email} is no longer an admin.`);
    return 0;
  } finally {
    await database.close();
  }
}

runCli(main);
