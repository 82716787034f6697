import { execFile, spawn } from "node:child_process";
import { createHash, randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadSigningSecret } from "@/server/platform/adapters/local/session-token";
import { openDatabase } from "@/server/db/database";
import { migrate } from "@/server/db/migrate";
import { seedOnce } from "@/server/db/seed";
import { createUser } from "../helpers/database";
import { placeTestOrder } from "../helpers/orders";

const run = promisify(execFile);
const TSX = path.resolve("node_modules/tsx/dist/cli.mjs");

const root = fs.mkdtempSync(path.join(os.tmpdir(), "shop-backup-"));
/** The shop that is backed up. */
const source = path.join(root, "source");
/** Where it is restored to (does not exist before the first restore). */
const target = path.join(root, "target");
const archive = path.join(root, "backups", "shop.tar.gz");
const IMAGE = path.join("storage", "product-images", "backup-test.png");

/** Runs `npm run backup|restore -- ...args` the way npm does, on the embedded data directory `dataDir`. */
async function cli(
  script: "backup" | "restore",
  args: string[],
  options: { dataDir: string; env?: Record<string, string>; cwd?: string },
) {
  try {
    const { stdout, stderr } = await run(process.execPath, [TSX, path.resolve("scripts", `${script}.ts`), ...args], {
      cwd: options.cwd,
      env: {
        ...process.env,
        // tsx finds the "@/..." paths through the project's tsconfig, also from another folder.
        TSX_TSCONFIG_PATH: path.resolve("tsconfig.json"),
        DATA_DIR: options.dataDir,
        DATABASE_URL: "",
        NEXT_PUBLIC_SUPABASE_URL: "",
        NODE_ENV: "test",
        ...options.env,
      },
    });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: failed.stdout + failed.stderr };
  }
}

const TABLES = [
  "public.products",
  "public.categories",
  "public.contact_messages",
  "public.profiles",
  "public.orders",
  "public.order_items",
  "auth.users",
  "storage.objects",
];

/** Every row of the tables a shop is made of, in a stable order. */
async function snapshot(dataDir: string): Promise<Record<string, unknown[]>> {
  const db = await openDatabase({ engine: "pglite", dataDir });
  try {
    const tables: Record<string, unknown[]> = {};
    for (const table of TABLES) {
      tables[table] = (await sql`select * from ${sql.table(table)} order by id`.execute(db.kysely)).rows;
    }
    return tables;
  } finally {
    await db.close();
  }
}

/** Every file and folder under `dir` with a hash of its bytes: equal trees mean nothing changed. */
function tree(dir: string): Record<string, string> {
  const entries: Record<string, string> = {};
  for (const name of fs.readdirSync(dir, { recursive: true, encoding: "utf8" }).sort()) {
    const file = path.join(dir, name);
    entries[name] = fs.statSync(file).isDirectory() ? "dir" : createHash("sha256").update(fs.readFileSync(file)).digest("hex");
  }
  return entries;
}

function siblingsOf(dir: string, marker: string) {
  return fs.readdirSync(path.dirname(dir)).filter((name) => name.startsWith(`${path.basename(dir)}${marker}`));
}

let before: Record<string, unknown[]>;
let imageBytes: Buffer;

beforeAll(async () => {
  // A shop with more than the seed: a new product, a contact message, a customer with an order,
  // an uploaded file and the generated auth signing secret.
  const db = await openDatabase({ engine: "pglite", dataDir: source });
  try {
    await migrate(db.kysely);
    await seedOnce(db.kysely, { demoUsers: true });
    const category = await db.kysely.selectFrom("categories").select("id").orderBy("name").executeTakeFirstOrThrow();
    const product = await db.kysely
      .insertInto("products")
      .values({
        name: "Backup test pie",
        description: "Flaky, with ünïcode",
        price: "42.50",
        category_id: category.id,
        image_path: "backup-test.png",
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await db.kysely
      .insertInto("contact_messages")
      .values({ name: "Thandi", email: "thandi@example.test", message: `Please call me back ${randomUUID()}` })
      .execute();
    const customer = await createUser(db, { email: "backup-customer@example.test" });
    await placeTestOrder(db, customer, [product.id]);
  } finally {
    await db.close();
  }
  imageBytes = randomBytes(64 * 1024);
  fs.mkdirSync(path.dirname(path.join(source, IMAGE)), { recursive: true });
  fs.writeFileSync(path.join(source, IMAGE), imageBytes);
  loadSigningSecret({ dataDir: source });

  before = await snapshot(source);
}, 120_000);

afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe("npm run backup / npm run restore (embedded mode)", () => {
  it("backs up a shop and restores it exactly into a fresh data directory", async () => {
    const backup = await cli("backup", [archive], { dataDir: source });
    expect(backup.code).toBe(0);
    expect(backup.output).toContain(`Backed up ${source} (`);
    expect(backup.output).toContain(` files) to ${archive} (`);
    // Written atomically: nothing but the archive in its folder, and the lock released.
    expect(fs.readdirSync(path.dirname(archive))).toEqual(["shop.tar.gz"]);
    expect(fs.existsSync(path.join(source, "shop.lock"))).toBe(false);

    const members = (await run("tar", ["-tzf", archive])).stdout.split("\n");
    expect(members).toContain("./backup-manifest.json");
    expect(members).toContain("./auth-secret");
    expect(members.some((name) => name.endsWith("shop.lock"))).toBe(false);
    const manifest = JSON.parse((await run("tar", ["-xzOf", archive, "./backup-manifest.json"])).stdout) as { files: number };
    expect(manifest).toMatchObject({ format: 1, app: "our-world-shop", version: expect.any(String) });
    expect(manifest.files).toBeGreaterThan(100);

    const restore = await cli("restore", [archive], { dataDir: target });
    expect(restore.code).toBe(0);
    expect(restore.output).toContain(`into ${target}`);

    // Same rows, same uploaded bytes, same signing secret (so sessions stay valid); no extras.
    expect(await snapshot(target)).toEqual(before);
    expect(before["public.products"]).toContainEqual(expect.objectContaining({ name: "Backup test pie" }));
    expect(before["public.contact_messages"]).toHaveLength(1);
    expect(before["public.orders"]).toHaveLength(1);
    expect(before["auth.users"]).toHaveLength(3); // the demo admin and customer, and ours
    expect(fs.readFileSync(path.join(target, IMAGE)).equals(imageBytes)).toBe(true);
    const secret = (dir: string) => fs.readFileSync(path.join(dir, "auth-secret"), "utf8");
    expect(secret(target)).toBe(secret(source));
    expect(fs.existsSync(path.join(target, "backup-manifest.json"))).toBe(false);
    expect(fs.existsSync(path.join(target, "shop.lock"))).toBe(false);
    expect(siblingsOf(target, ".restore-")).toEqual([]);
  }, 120_000);

  it("writes to backups/shop-<timestamp>.tar.gz by default and never overwrites a file", async () => {
    const backup = await cli("backup", [], { dataDir: source, cwd: root });
    expect(backup.code).toBe(0);
    const made = fs.readdirSync(path.join(root, "backups")).filter((name) => name !== "shop.tar.gz");
    expect(made).toEqual([expect.stringMatching(/^shop-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ\.tar\.gz$/)]);

    const again = await cli("backup", [archive], { dataDir: source });
    expect(again.code).toBe(1);
    expect(again.output).toContain(`${archive} already exists`);
  }, 60_000);

  it("refuses to restore over a data directory that holds a shop, unless --force", async () => {
    const untouched = tree(target);
    const refused = await cli("restore", [archive], { dataDir: target });
    expect(refused.code).toBe(1);
    expect(refused.output).toContain(`${target} already holds a shop`);
    expect(refused.output).toContain("--force");
    expect(tree(target)).toEqual(untouched);
  }, 60_000);

  it("with --force moves the current data directory aside, never deleting it", async () => {
    fs.writeFileSync(path.join(target, "storage", "marker.txt"), "the shop before the restore");
    const old = tree(target);

    const restore = await cli("restore", [archive, "--force"], { dataDir: target });
    expect(restore.code).toBe(0);
    const aside = siblingsOf(target, ".before-restore-");
    expect(aside).toHaveLength(1);
    const asideDir = path.join(root, aside[0]!);
    expect(restore.output).toContain(`The previous data directory was moved to ${asideDir}.`);
    expect(tree(asideDir)).toEqual(old);
    expect(fs.existsSync(path.join(target, "storage", "marker.txt"))).toBe(false);
    expect(await snapshot(target)).toEqual(before);
  }, 120_000);

  it("fails clearly on a corrupt archive or one that is not a shop backup, changing nothing", async () => {
    const corrupt = path.join(root, "corrupt.tar.gz");
    const valid = fs.readFileSync(archive);
    fs.writeFileSync(corrupt, valid.subarray(0, valid.length / 2)); // truncated mid-way
    const random = path.join(root, "random.tar.gz");
    fs.writeFileSync(random, randomBytes(4096));
    const notAShop = path.join(root, "not-a-shop.tar.gz");
    await run("tar", ["-czf", notAShop, "-C", path.join(source, "storage"), "."]);

    const untouched = tree(target);
    const asideBefore = siblingsOf(target, ".before-restore-");
    for (const [file, message] of [
      [corrupt, "is not a readable backup"],
      [random, "is not a readable backup"],
      [notAShop, "is not a shop backup"],
    ] as const) {
      const restore = await cli("restore", [file, "--force"], { dataDir: target });
      expect(restore.code).toBe(1);
      expect(restore.output).toContain(`${file} ${message}`);
      expect(restore.output).toContain(`Nothing was changed in ${target}.`);
      expect(tree(target)).toEqual(untouched);
      expect(siblingsOf(target, ".before-restore-")).toEqual(asideBefore);
      expect(siblingsOf(target, ".restore-")).toEqual([]);
    }

    const missing = await cli("restore", [path.join(root, "nope.tar.gz")], { dataDir: target });
    expect(missing.code).toBe(1);
    expect(missing.output).toContain("There is no backup file at");
  }, 120_000);

  it("refuses while the shop (another process) holds the data directory", async () => {
    // Stands in for a running shop: a live process whose pid is in the lock file.
    const shop = spawn("sleep", ["30"]);
    try {
      const pid = shop.pid!;
      fs.writeFileSync(path.join(source, "shop.lock"), String(pid));
      fs.writeFileSync(path.join(target, "shop.lock"), String(pid));
      const untouched = tree(target);

      const other = path.join(root, "while-running.tar.gz");
      const backup = await cli("backup", [other], { dataDir: source });
      expect(backup.code).toBe(1);
      expect(backup.output).toContain(`The shop is running on ${source} (pid ${pid})`);
      expect(fs.existsSync(other)).toBe(false);
      expect(fs.readFileSync(path.join(source, "shop.lock"), "utf8")).toBe(String(pid));

      const restore = await cli("restore", [archive, "--force"], { dataDir: target });
      expect(restore.code).toBe(1);
      expect(restore.output).toContain(`The shop is running on ${target} (pid ${pid})`);
      expect(tree(target)).toEqual(untouched);
    } finally {
      shop.kill();
      fs.rmSync(path.join(source, "shop.lock"), { force: true });
      fs.rmSync(path.join(target, "shop.lock"), { force: true });
    }
  }, 60_000);

  it("points to pg_dump in the PostgreSQL server mode", async () => {
    const postgres = { DATABASE_URL: "postgres://shop@localhost:5432/shop" };
    const backup = await cli("backup", [], { dataDir: source, env: postgres });
    expect(backup.code).toBe(2);
    expect(backup.output).toContain("pg_dump");
    const restore = await cli("restore", [archive], { dataDir: target, env: postgres });
    expect(restore.code).toBe(2);
    expect(restore.output).toContain("pg_restore");
  }, 60_000);
});
