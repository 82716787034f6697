import fs from "node:fs";
import path from "node:path";
import type { Kysely } from "kysely";
import { execScript } from "@/server/db/database";
import { COMPAT_FILE } from "@/server/db/migrate";
import type { DB } from "@/server/db/schema";

/**
 * The declarative schema (docs/schema-changes.md): the current definition of everything the
 * migrations create, one file per domain, applied in file-name order. Nothing in the shop applies
 * these files (migrations are what deploys); tests/db/declarative-schema.test.ts builds a database
 * from them and holds it equal to one built from the migrations.
 */
export const SCHEMAS_DIR = "supabase/schemas";

export function readSchemaFiles(root = process.cwd()): { file: string; sql: string }[] {
  const dir = path.join(root, SCHEMAS_DIR);
  return fs
    .readdirSync(dir)
    .filter((file) => file.endsWith(".sql"))
    .sort()
    .map((file) => ({ file, sql: fs.readFileSync(path.join(dir, file), "utf8") }));
}

/**
 * Applies the schema files to an empty database in one transaction, after the compatibility
 * schema unless the platform is there already ("supabase": the privileged test cluster, where the
 * files run as the non-superuser postgres, as the migrations do). A failing file is named.
 */
export async function applySchemaFiles(
  db: Kysely<DB>,
  options: { root?: string; platform?: "compat" | "supabase" } = {},
): Promise<void> {
  const root = options.root ?? process.cwd();
  await db.transaction().execute(async (trx) => {
    if (options.platform !== "supabase") await execScript(trx, fs.readFileSync(path.join(root, COMPAT_FILE), "utf8"));
    for (const { file, sql } of readSchemaFiles(root)) {
      try {
        await execScript(trx, sql);
      } catch (error) {
        throw new Error(`${SCHEMAS_DIR}/${file}: ${(error as Error).message}`);
      }
    }
  });
}
