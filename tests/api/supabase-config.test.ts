import fs from "node:fs";
import { parse } from "smol-toml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mergeEnvLocal, parseEnvLines, shopSettingsFromStatus } from "../../scripts/lib/supabase-env";
import { freshDatabase, type TestDatabase } from "../helpers/database";
import { SUPABASE_SEEDS } from "../helpers/supabase-platform";

/**
 * `supabase start` ready (issue 23 item 8): supabase/config.toml agrees with the migrations and
 * the shop's routes, and `npm run supabase:env` turns `supabase status` into .env.local.
 */

interface Bucket {
  public: boolean;
  file_size_limit: string;
  allowed_mime_types: string[];
}
interface Config {
  auth: { site_url: string; additional_redirect_urls: string[]; email: { enable_confirmations: boolean } };
  storage: { buckets: Record<string, Bucket> };
  db: { seed: { enabled: boolean; sql_paths: string[] } };
}

const config = parse(fs.readFileSync("supabase/config.toml", "utf8")) as unknown as Config;

/** "5MiB" → bytes, as the CLI reads sizes. */
function bytes(size: string): number {
  const match = /^(\d+)\s*(B|KiB|MiB|GiB)$/.exec(size);
  if (!match) throw new Error(`unreadable size ${size}`);
  return Number(match[1]) * { B: 1, KiB: 1024, MiB: 1024 ** 2, GiB: 1024 ** 3 }[match[2] as "B"];
}

/** Supabase Auth's allow-list match: `**` any characters, `*` any but `/` and `.`. */
function allowed(url: string, patterns: string[]): boolean {
  return patterns.some((pattern) => {
    const regex = pattern.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*\*/g, "\u0000").replace(/\*/g, "[^/.]*").replace(/\u0000/g, ".*");
    return new RegExp(`^${regex}$`).test(url);
  });
}

let db: TestDatabase;

beforeAll(async () => {
  db = await freshDatabase({ seed: false });
});

afterAll(async () => {
  await db?.close();
});

describe("supabase/config.toml", () => {
  it("declares the buckets exactly as the migrations create them", async () => {
    const rows = await db.kysely.selectFrom("storage.buckets").select(["id", "public", "file_size_limit", "allowed_mime_types"]).orderBy("id").execute();
    const fromConfig = Object.entries(config.storage.buckets)
      .map(([id, bucket]) => ({ id, public: bucket.public, file_size_limit: bytes(bucket.file_size_limit), allowed_mime_types: bucket.allowed_mime_types }))
      .sort((a, b) => a.id.localeCompare(b.id));
    expect(fromConfig).toEqual(rows.map((row) => ({ ...row, file_size_limit: Number(row.file_size_limit) })));
  });

  it("lets every callback the shop gives Supabase Auth come back to the shop", () => {
    const { site_url: site, additional_redirect_urls: urls } = config.auth;
    for (const flow of ["signup", "google", "magiclink", "recovery"]) {
      expect(allowed(`${site}/auth/callback?flow=${flow}&next=%2Fproducts`, urls), flow).toBe(true);
    }
    expect(allowed(`${site}/auth/callback`, urls)).toBe(true);
    // Nowhere else: a link to another path or host falls back to site_url.
    expect(allowed(`${site}/admin/dashboard`, urls)).toBe(false);
    expect(allowed("https://evil.example/auth/callback", urls)).toBe(false);
  });

  it("seeds what supabase start runs: the demo catalogue, then the demo accounts", () => {
    expect(config.db.seed.enabled).toBe(true);
    expect(config.db.seed.sql_paths.map((file) => `supabase/${file.replace(/^\.\//, "")}`)).toEqual(SUPABASE_SEEDS);
    for (const file of SUPABASE_SEEDS) expect(fs.existsSync(file), file).toBe(true);
  });
});

describe("npm run supabase:env", () => {
  const STATUS = [
    'API_URL="http://127.0.0.1:54321"',
    'DB_URL="postgresql://postgres:postgres@127.0.0.1:54322/postgres"',
    'ANON_KEY="eyJhbGciOiJIUzI1NiJ9.anon"',
    'SERVICE_ROLE_KEY="eyJhbGciOiJIUzI1NiJ9.service"',
    'JWT_SECRET="super-secret-jwt-token-with-at-least-32-characters-long"',
    "",
  ].join("\n");

  it("takes the URL, keys and database from `supabase status -o env`", () => {
    expect(shopSettingsFromStatus(parseEnvLines(STATUS))).toEqual({
      settings: {
        NEXT_PUBLIC_SUPABASE_URL: "http://127.0.0.1:54321",
        NEXT_PUBLIC_SUPABASE_ANON_KEY: "eyJhbGciOiJIUzI1NiJ9.anon",
        SUPABASE_SERVICE_ROLE_KEY: "eyJhbGciOiJIUzI1NiJ9.service",
        DATABASE_URL: "postgresql://postgres:postgres@127.0.0.1:54322/postgres",
      },
    });
    expect(shopSettingsFromStatus(parseEnvLines('API_URL="http://127.0.0.1:54321"'))).toEqual({
      missing: ["ANON_KEY or PUBLISHABLE_KEY", "SERVICE_ROLE_KEY or SECRET_KEY", "DB_URL"],
    });
  });

  it("replaces those settings in .env.local and keeps every other line", () => {
    const result = shopSettingsFromStatus(parseEnvLines(STATUS));
    if (!("settings" in result)) throw new Error("no settings");
    const before = "# mine\nSMTP_URL=smtp://x\nDATABASE_URL=postgres://old\nSITE_URL=https://shop.example\n";
    const after = mergeEnvLocal(before, result.settings);
    expect(parseEnvLines(after)).toEqual({ SMTP_URL: "smtp://x", SITE_URL: "https://shop.example", ...result.settings });
    expect(after.startsWith("# mine\nSMTP_URL=smtp://x\nDATABASE_URL=postgresql://")).toBe(true);
    expect(mergeEnvLocal(after, result.settings)).toBe(after);
    expect(parseEnvLines(mergeEnvLocal("", result.settings)).SITE_URL).toBe("http://localhost:3000");
  });
});
