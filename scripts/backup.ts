/**
 * Backs up the embedded shop:  npm run backup -- [<file.tar.gz>]
 * One gzipped tar of DATA_DIR: the PGlite database (pgdata/), uploaded files (storage/) and the
 * auth signing secret (auth-secret), plus a backup-manifest.json; `npm run restore` puts it back.
 * PGlite allows one process per data directory, so this refuses while the shop is running, and it
 * holds the directory's lock file itself while archiving so the shop cannot start halfway through.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import nextEnv from "@next/env";
import { fileTimestamp, MANIFEST_FILE, runTar, shopRunningMessage } from "./lib/data-dir-cli";
import { runCli } from "./lib/run-cli";

// Before anything reads the environment: "@/env" is imported below, once .env files are loaded.
nextEnv.loadEnvConfig(process.cwd());

const USAGE = "Usage: npm run backup -- [<file.tar.gz>]   (default: backups/shop-<timestamp>.tar.gz)";


async function main(): Promise<number> {
  const args = process.argv.slice(2);
  if (args.length > 1 || args.some((arg) => arg.startsWith("-"))) {
    console.error(USAGE);
    return 2;
  }

  const { env, runMode } = await import("@/env");
  const { dataDirHolder, LOCK_FILE } = await import("@/server/db/database");

  if (runMode() !== "embedded") {
    console.error(
      "npm run backup covers the embedded mode (PGlite under DATA_DIR) only. With a PostgreSQL server\n" +
        "(DATABASE_URL), back up the database with its own tools, e.g. pg_dump --format=custom \"$DATABASE_URL\".",
    );
    return 2;
  }

  const dataDir = path.resolve(env.DATA_DIR);
  if (!fs.existsSync(path.join(dataDir, "pgdata"))) {
    console.error(`There is no shop database in ${dataDir} (no pgdata/): nothing to back up. Check DATA_DIR.`);
    return 1;
  }
  const holder = dataDirHolder(dataDir);
  if (holder !== undefined) {
    console.error(shopRunningMessage(dataDir, holder, "run the backup"));
    return 1;
  }

  const target = path.resolve(args[0] ?? path.join("backups", `shop-${fileTimestamp()}.tar.gz`));
  if (isInside(target, dataDir)) {
    console.error(`Write the backup outside the data directory ${dataDir}, not into it.`);
    return 1;
  }
  if (fs.existsSync(target)) {
    console.error(`${target} already exists: choose another file name (a backup never overwrites a file).`);
    return 1;
  }
  fs.mkdirSync(path.dirname(target), { recursive: true });

  // Take the data directory like the shop would (same lock file), so the shop refuses to start
  // while we read it. A stale lock of a process that is gone is simply replaced.
  const lockFile = path.join(dataDir, LOCK_FILE);
  fs.writeFileSync(lockFile, String(process.pid));
  const staging = fs.mkdtempSync(path.join(os.tmpdir(), "shop-backup-"));
  // The archive is written under a temporary name in the target's folder and renamed only once it
  // is complete and on disk: a failed or interrupted backup never leaves a half file under the name.
  const partial = path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.partial`);
  try {
    const entries = fs.readdirSync(dataDir).filter((name) => name !== LOCK_FILE);
    const files = entries.reduce((count, name) => count + countFiles(path.join(dataDir, name)), 0);
    const packageJson = readPackageJson();
    const manifest = {
      format: 1,
      app: packageJson.name,
      version: packageJson.version,
      createdAt: new Date().toISOString(),
      files,
    };
    fs.writeFileSync(path.join(staging, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);

    const fd = fs.openSync(partial, "wx", 0o600);
    try {
      // tar writes to stdout (`-f -`) straight into our file: no shell, and no archive name that
      // tar could mistake for a remote host:path. "./name" keeps names starting with "-" harmless.
      await runTar(
        ["-czf", "-", "-C", dataDir, ...entries.map((name) => `./${name}`), "-C", staging, `./${MANIFEST_FILE}`],
        { stdout: fd },
      );
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(partial, target);
    syncDirectory(path.dirname(target));

    const size = fs.statSync(target).size;
    console.log(`Backed up ${dataDir} (${files} files) to ${target} (${formatSize(size)}).`);
    return 0;
  } catch (error) {
    fs.rmSync(partial, { force: true });
    throw error;
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
    releaseLock(lockFile);
  }
}

/** Removes our lock file, unless some other process has taken its place meanwhile. */
function releaseLock(lockFile: string) {
  try {
    if (fs.readFileSync(lockFile, "utf8").trim() === String(process.pid)) fs.rmSync(lockFile, { force: true });
  } catch {
    // already gone
  }
}

/** Regular files under `file` (itself, if it is one). */
function countFiles(file: string): number {
  const stat = fs.lstatSync(file);
  if (!stat.isDirectory()) return stat.isFile() ? 1 : 0;
  return fs.readdirSync(file).reduce((count, name) => count + countFiles(path.join(file, name)), 0);
}

/** Makes a rename durable: fsync the folder that holds the entry (not possible everywhere, e.g. Windows). */
function syncDirectory(dir: string) {
  let fd: number | undefined;
  try {
    fd = fs.openSync(dir, "r");
    fs.fsyncSync(fd);
  } catch {
    // best effort
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

function readPackageJson(): { name: string; version: string } {
  return JSON.parse(fs.readFileSync(path.join(import.meta.dirname, "..", "package.json"), "utf8")) as {
    name: string;
    version: string;
  };
}

function isInside(file: string, dir: string): boolean {
  const relative = path.relative(dir, file);
  return relative === "" || (relative.split(path.sep)[0] !== ".." && !path.isAbsolute(relative));
}

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

runCli(main, (message) => `Backup failed: ${message}`);
