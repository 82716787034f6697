import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { PGlite } from "@electric-sql/pglite";
import { Kysely } from "kysely";
import { PGLITE_SETTINGS } from "@/server/db/database";
import { migrate } from "@/server/db/migrate";
import { Mutex, PGliteDialect } from "@/server/db/pglite-dialect";
import type { DB } from "@/server/db/schema";
import { supabasePlatformUrl } from "./supabase-platform";

declare module "vitest" {
  export interface ProvidedContext {
    /** A PGlite data directory with every migration applied, as a tar file (PGlite's dumpDataDir); "" on PostgreSQL. */
    migratedPglite: string;
  }
}

/**
 * Migrating a new PGlite takes 2 to 4 s on the 2-core machine, and test files open about fifty
 * databases. The run migrates one once, here, and each test file starts its in-memory database
 * from a copy of that one's files (under a second). Made per run, never reused across runs, so it
 * is always the migrations as they are now. PostgreSQL runs migrate each fresh database as before.
 */
export default async function setup(project: TestProject) {
  if (process.env.DATABASE_URL || supabasePlatformUrl()) {
    project.provide("migratedPglite", "");
    return;
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-test-template-"));
  const file = path.join(dir, "migrated.tar");
  const pg = await PGlite.create({ postgresqlconf: PGLITE_SETTINGS });
  const kysely = new Kysely<DB>({ dialect: new PGliteDialect(pg, new Mutex()) });
  try {
    await migrate(kysely);
    const tar = await pg.dumpDataDir("none");
    fs.writeFileSync(file, Buffer.from(await tar.arrayBuffer()));
  } finally {
    await kysely.destroy();
  }
  project.provide("migratedPglite", file);
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
