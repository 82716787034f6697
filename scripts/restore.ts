/**
 * Restores a backup of the embedded shop:  npm run restore -- <file.tar.gz> [--force]
 * The archive (made by `npm run backup`) becomes DATA_DIR: database, uploaded files and auth
 * signing secret, exactly as they were. It is unpacked next to DATA_DIR and opened once to prove
 * it works; only then does it replace DATA_DIR, with one rename. Anything that fails before that
 * leaves DATA_DIR as it was. A non-empty DATA_DIR is replaced only with --force, and then moved
 * aside to <DATA_DIR>.before-restore-<timestamp>, never deleted.
 */
import fs from "node:fs";
import path from "node:path";
import nextEnv from "@next/env";
import { fileTimestamp, MANIFEST_FILE, runTar, shopRunningMessage } from "./lib/data-dir-cli";
import { runCli } from "./lib/run-cli";

// Before anything reads the environment: "@/env" is imported below, once .env files are loaded.
nextEnv.loadEnvConfig(process.cwd());

const USAGE = "Usage: npm run restore -- <file.tar.gz> [--force]";


/** A refusal or failure with a message for the person running the command (exit 1). */
class RestoreError extends Error {}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const force = args.includes("--force");
  const [file, ...rest] = args.filter((arg) => arg !== "--force");
  if (!file || file.startsWith("-") || rest.length > 0) {
    console.error(USAGE);
    return 2;
  }

  const { env, runMode } = await import("@/env");
  const { dataDirHolder, LOCK_FILE, openDatabase } = await import("@/server/db/database");
  const { sql } = await import("kysely");

  if (runMode() !== "embedded") {
    console.error(
      "npm run restore covers the embedded mode (PGlite under DATA_DIR) only. With a PostgreSQL server\n" +
        "(DATABASE_URL), restore a pg_dump backup with its own tools, e.g. pg_restore --dbname=\"$DATABASE_URL\" <file>.",
    );
    return 2;
  }

  const archive = path.resolve(file);
  if (!fs.statSync(archive, { throwIfNoEntry: false })?.isFile()) {
    throw new RestoreError(`There is no backup file at ${archive}.`);
  }
  const dataDir = path.resolve(env.DATA_DIR);

  /** Why DATA_DIR may not be replaced now, if it may not. */
  function refusal(): string | undefined {
    const holder = dataDirHolder(dataDir);
    if (holder !== undefined) return shopRunningMessage(dataDir, holder, "run the restore");
    const stat = fs.statSync(dataDir, { throwIfNoEntry: false });
    if (stat && !stat.isDirectory()) return `DATA_DIR ${dataDir} is not a directory.`;
    if (stat && !force && fs.readdirSync(dataDir).length > 0) {
      return (
        `${dataDir} already holds a shop. To replace it, run this again with --force: the current data\n` +
        `directory is then moved aside to ${dataDir}.before-restore-<timestamp> (not deleted).`
      );
    }
    return undefined;
  }

  const refused = refusal();
  if (refused) throw new RestoreError(refused);

  // Unpack next to DATA_DIR, on the same file system, so that putting it in place is one rename.
  fs.mkdirSync(path.dirname(dataDir), { recursive: true });
  const staging = fs.mkdtempSync(`${dataDir}.restore-`);
  let placed = false;
  try {
    try {
      await extract(archive, staging);
    } catch (error) {
      throw new RestoreError(
        `${archive} is not a readable backup (a .tar.gz made by npm run backup): ${(error as Error).message}`,
      );
    }
    const manifest = readManifest(staging);
    fs.rmSync(path.join(staging, MANIFEST_FILE), { force: true });
    fs.rmSync(path.join(staging, LOCK_FILE), { force: true });
    if (!fs.existsSync(path.join(staging, "pgdata", "PG_VERSION"))) {
      throw new RestoreError(`${archive} is not a shop backup: it holds no PGlite database (pgdata/).`);
    }

    // Prove the database opens and answers before it replaces anything.
    let products: number;
    try {
      const database = await openDatabase({ engine: "pglite", dataDir: staging });
      try {
        const { rows } = await sql<{ count: number }>`select count(*)::int as count from public.products`.execute(
          database.kysely,
        );
        products = rows[0]?.count ?? 0;
      } finally {
        await database.close();
      }
    } catch (error) {
      throw new RestoreError(`The database in ${archive} does not open: ${(error as Error).message}`);
    }

    // The shop may have started while we unpacked: check again right before the swap.
    const late = refusal();
    if (late) throw new RestoreError(late);

    let aside: string | undefined;
    if (fs.existsSync(dataDir)) {
      if (fs.readdirSync(dataDir).length === 0) {
        fs.rmdirSync(dataDir);
      } else {
        aside = unusedName(`${dataDir}.before-restore-${fileTimestamp()}`);
        fs.renameSync(dataDir, aside);
      }
    }
    try {
      fs.renameSync(staging, dataDir);
    } catch (error) {
      if (aside) fs.renameSync(aside, dataDir); // put the old shop back
      throw error;
    }
    placed = true;

    const from = manifest ? ` (backup of ${manifest.createdAt}, version ${manifest.version})` : "";
    console.log(`Restored ${archive}${from} into ${dataDir}: ${products} products.`);
    if (aside) console.log(`The previous data directory was moved to ${aside}.`);
    return 0;
  } catch (error) {
    if (error instanceof RestoreError) error.message += `\nNothing was changed in ${dataDir}.`;
    throw error;
  } finally {
    if (!placed) fs.rmSync(staging, { recursive: true, force: true });
  }
}

/** Unpacks the gzipped tar `archive` into `dir` (tar refuses members with absolute paths or ".."). */
async function extract(archive: string, dir: string): Promise<void> {
  const fd = fs.openSync(archive, "r");
  try {
    await runTar(["-xzf", "-", "-C", dir, "--no-same-owner"], { stdin: fd });
  } finally {
    fs.closeSync(fd);
  }
}

/** The backup's manifest, if it has a readable one (a hand-made archive of DATA_DIR need not). */
function readManifest(dir: string): { createdAt: string; version: string } | undefined {
  try {
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, MANIFEST_FILE), "utf8")) as Record<string, unknown>;
    return { createdAt: String(manifest.createdAt), version: String(manifest.version) };
  } catch {
    return undefined;
  }
}

/** `base`, or `base-2`, `base-3`... whichever does not exist yet. */
function unusedName(base: string): string {
  let name = base;
  for (let n = 2; fs.existsSync(name); n++) name = `${base}-${n}`;
  return name;
}

runCli(main, (message, error) => (error instanceof RestoreError ? message : `Restore failed: ${message}`));
