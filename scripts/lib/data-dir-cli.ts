/**
 * What the command-line scripts that work on the embedded data directory share (admin, backup,
 * restore): the refusal while the shop holds it, the tar runner, the backup manifest's name and
 * file-name timestamps.
 */
import { spawn } from "node:child_process";

/** Written into a backup next to the data; restore reads it back and leaves it out of DATA_DIR. */
export const MANIFEST_FILE = "backup-manifest.json";

/** Why a script will not touch `dataDir` while the shop (process `pid`) holds it. */
export function shopRunningMessage(dataDir: string, pid: number, step: string): string {
  return (
    `The shop is running on ${dataDir} (pid ${pid}). PGlite allows one process per data directory:\n` +
    `stop the shop, ${step}, then start the shop again.`
  );
}

/**
 * Runs tar with the given stdin/stdout file descriptors (archives go through `-f -`: no shell,
 * and no archive name tar could mistake for a remote host:path); rejects with tar's own message.
 */
export async function runTar(args: string[], stdio: { stdin?: number; stdout?: number }): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const child = spawn("tar", args, { stdio: [stdio.stdin ?? "ignore", stdio.stdout ?? "ignore", "pipe"] });
    let stderr = "";
    child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", (error) => reject(new Error(`Could not run tar (is it installed?): ${error.message}`)));
    child.on("close", (code) =>
      code === 0 ? resolve() : reject(new Error(`tar failed (exit ${code}): ${stderr.trim() || "no message"}`)),
    );
  });
}

/** An ISO timestamp that is safe in file names everywhere (no colons): 2026-05-01T09-30-00Z. */
export function fileTimestamp(): string {
  return new Date().toISOString().replace(/\.\d+Z$/, "Z").replaceAll(":", "-");
}
