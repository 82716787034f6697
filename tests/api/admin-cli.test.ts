import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/server/db/database";
import { migrate } from "@/server/db/migrate";
import { createUser } from "../helpers/database";

const run = promisify(execFile);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-admin-cli-"));

async function admin(...args: string[]) {
  try {
    const { stdout, stderr } = await run(process.execPath, ["node_modules/tsx/dist/cli.mjs", "scripts/admin.ts", ...args], {
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "", NODE_ENV: "test" },
    });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: failed.stdout + failed.stderr };
  }
}

async function roleOf(email: string) {
  const db = await openDatabase({ engine: "pglite", dataDir });
  try {
    return (await db.kysely.selectFrom("profiles").select("role").where("email", "=", email).executeTakeFirst())?.role;
  } finally {
    await db.close();
  }
}

afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

describe("npm run admin (embedded mode)", () => {
  it("grants and revokes the admin role, refuses unknown accounts, and never opens a data directory in use", async () => {
    const setup = await openDatabase({ engine: "pglite", dataDir });
    await migrate(setup.kysely);
    await createUser(setup, { email: "owner@example.test" });
    await setup.close();

    expect(await admin("grant", "Owner@Example.test")).toEqual({ code: 0, output: "owner@example.test is now an admin.\n" });
    expect(await roleOf("owner@example.test")).toBe("admin");
    expect(await admin("revoke", "owner@example.test")).toEqual({ code: 0, output: "owner@example.test is no longer an admin.\n" });
    expect(await roleOf("owner@example.test")).toBe("user");

    const unknown = await admin("grant", "nobody@example.test");
    expect(unknown.code).toBe(1);
    expect(unknown.output).toContain("No account with the email nobody@example.test");

    const usage = await admin("promote", "x@example.test");
    expect(usage.code).toBe(2);

    // A running shop holds the data directory: the command refuses instead of opening it twice.
    const running = await openDatabase({ engine: "pglite", dataDir });
    try {
      const refused = await admin("grant", "owner@example.test");
      expect(refused.code).toBe(1);
      expect(refused.output).toContain(`The shop is running on ${dataDir} (pid ${process.pid})`);
    } finally {
      await running.close();
    }
    expect(await roleOf("owner@example.test")).toBe("user");
  }, 60_000);
});
