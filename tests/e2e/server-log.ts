import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/** Where scripts/e2e-server.ts copies the server's stdout and stderr for the browser tests. */
export function e2eServerLogPath(port: string | number = process.env.E2E_PORT ?? 3100): string {
  return path.join(os.tmpdir(), `shop-e2e-server-${port}.log`);
}

/** Everything the server under test has printed so far. */
export function serverOutput(): string {
  const file = e2eServerLogPath();
  return fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "";
}
