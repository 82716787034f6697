import fs from "node:fs";
import path from "node:path";
import { createClient } from "@supabase/supabase-js";
import { describe, expect, it } from "vitest";
import { Kysely } from "kysely";
import { catalogueFor } from "@/server/catalogue/catalogue";
import { supabasePublicUrl } from "@/server/platform/adapters/supabase/supabase-storage";
import { freshDatabase } from "../helpers/database";
import { contextAs } from "../helpers/browser";

/** The architecture's boundaries (docs/architecture.md#ports-and-the-platform, #one-shape-per-domain), checked on the source itself. */
const SRC = path.resolve(import.meta.dirname, "../../src");

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.(ts|tsx|mjs)$/.test(entry.name) ? [full] : [];
  });
}

const files = sourceFiles(SRC).map((file) => ({ file: path.relative(SRC, file), text: fs.readFileSync(file, "utf8") }));
const importsOf = (text: string) => [...text.matchAll(/(?:from|import)\s*\(?\s*["']([^"']+)["']/g)].map((match) => match[1]!);

/** Whether an import specifier written in `file` (relative to src/) names a module under src/server/api/. */
function isIntoApi(file: string, spec: string): boolean {
  const target = spec.startsWith("@/") ? spec.slice(2) : spec.startsWith(".") ? path.posix.join(path.posix.dirname(file), spec) : null;
  return target !== null && (target === "server/api" || target.startsWith("server/api/"));
}

describe("the platform boundary", () => {
  it("only src/server/platform/ imports an adapter", () => {
    const offenders = files
      .filter(({ file }) => !file.startsWith("server/platform/"))
      .flatMap(({ file, text }) => importsOf(text).filter((spec) => /^(@\/server\/|\.{1,2}\/).*\badapters\//.test(spec)).map((spec) => `${file} imports ${spec}`));
    expect(files.length).toBeGreaterThan(100);
    expect(offenders).toEqual([]);
  });

  it("the Supabase SDK is loaded only by the platform and the browser's live hook", () => {
    const allowed = (file: string) => file.startsWith("server/platform/") || file.startsWith("components/live/");
    const offenders = files
      .filter(({ file }) => !allowed(file))
      .flatMap(({ file, text }) => importsOf(text).filter((spec) => spec.startsWith("@supabase/")).map((spec) => `${file} imports ${spec}`));
    expect(offenders).toEqual([]);
  });

  it("only src/env.ts reads process.env (besides the instrumentation hook and the platform's runtime checks)", () => {
    const offenders = files
      .filter(({ file }) => file !== "env.ts" && !file.startsWith("instrumentation"))
      .filter(({ text }) => /process\.env\.(?!NEXT_RUNTIME\b|PORT\b|NODE_ENV\b)/.test(text))
      .map(({ file }) => file);
    expect(offenders).toEqual([]);
  });
});

describe("routers", () => {
  const routers = files.filter(({ file }) => /^server\/[^/]+\/router\.ts$/.test(file));

  it("live in their domain folders, and src/server/api/ holds only tRPC's setup", () => {
    expect(routers.map(({ file }) => file.split("/")[1]).sort()).toEqual(
      expect.arrayContaining(["auth", "cart", "catalogue", "checkout", "contact", "live", "orders", "products", "profile"]),
    );
    expect(fs.readdirSync(path.join(SRC, "server/api")).sort()).toEqual(["init.ts", "middlewares", "root.ts", "trpc.ts"]);
  });

  it("wire each procedure to a named handler, never an inline one", () => {
    const inline = /\.(query|mutation|subscription)\(\s*(async\s*)?(\(|[A-Za-z_$][\w$]*\s*=>|function\b)/g;
    const offenders = routers.flatMap(({ file, text }) => [...text.matchAll(inline)].map((match) => `${file}: ${match[0]}`));
    expect(offenders).toEqual([]);
  });

  it("take from src/server/api/ only the router factory, the procedure builders and the middlewares", () => {
    const offenders = routers.flatMap(({ file, text }) =>
      [...text.matchAll(/import\s+(type\s+)?\{([^}]*)\}\s+from\s+"@\/server\/api\/trpc"/g)].flatMap((match) =>
        match[2]!
          .split(",")
          .map((name) => name.trim())
          .filter((name) => name && name !== "createTRPCRouter" && !/^[a-z][A-Za-z]*Procedure$/.test(name))
          .map((name) => `${file} imports ${name}`),
      ),
    );
    const elsewhere = routers.flatMap(({ file, text }) =>
      importsOf(text)
        .filter((spec) => isIntoApi(file, spec) && spec !== "@/server/api/trpc" && !spec.startsWith("@/server/api/middlewares/"))
        .map((spec) => `${file} imports ${spec}`),
    );
    expect([...offenders, ...elsewhere]).toEqual([]);
  });

  it("build no SQL: they wire an input schema and a guard to one call", () => {
    const sqlBuilding = /\b(selectFrom|insertInto|updateTable|deleteFrom|sql`|sql\.raw|from "kysely")/;
    expect(routers.filter(({ text }) => sqlBuilding.test(text)).map(({ file }) => file)).toEqual([]);
  });

  it("live updates refetch through one map (components/live/invalidation.ts)", () => {
    const offenders = files
      .filter(({ file }) => file.startsWith("components/live/") && file !== "components/live/invalidation.ts")
      .filter(({ text }) => /\.invalidate\(/.test(text))
      .map(({ file }) => file);
    expect(offenders).toEqual([]);
  });

  it("names the shop's time zone in one place (src/lib/days.ts; SQL in the query files says it itself)", () => {
    const offenders = files.filter(({ file, text }) => file !== "lib/days.ts" && !file.endsWith("-queries.ts") && text.includes("Africa/Johannesburg")).map(({ file }) => file);
    expect(offenders).toEqual([]);
  });

  it("declares each status list once (src/lib/statuses.ts)", () => {
    const lists = [/"pending_payment",\s*"pending_delivery"/, /"bank_transfer",\s*"payfast"/, /"delivery",\s*"collection"/, /\[\s*"invoice",\s*"credit_note"\s*\]/];
    const offenders = files.filter(({ file, text }) => file !== "lib/statuses.ts" && lists.some((list) => list.test(text))).map(({ file }) => file);
    expect(offenders).toEqual([]);
  });

  it("pages and components build no SQL either", () => {
    const sqlBuilding = /\b(selectFrom|insertInto|updateTable|deleteFrom|sql`|from "kysely")/;
    const offenders = files.filter(({ file }) => file.startsWith("app/") || file.startsWith("components/")).filter(({ text }) => sqlBuilding.test(text));
    expect(offenders.map(({ file }) => file)).toEqual([]);
  });
});

describe("domain code", () => {
  it("takes nothing from src/server/api/ but the context's type: shared helpers live in the domains or api/middlewares/", () => {
    // Routers wire procedures from api/'s builders; api/ is tRPC's own setup; the platform builds what the context holds.
    const domainFiles = files.filter(
      ({ file }) => file.startsWith("server/") && !file.startsWith("server/api/") && !file.startsWith("server/platform/") && !/^server\/[^/]+\/router\.ts$/.test(file),
    );
    const contextType = /^import type \{ TRPCContext \} from "@\/server\/api\/trpc";$/;
    const offenders = domainFiles.flatMap(({ file, text }) =>
      text
        .split("\n")
        .map((line) => line.trim())
        .filter((line) => importsOf(line).some((spec) => isIntoApi(file, spec)) && !contextType.test(line))
        .map((line) => `${file}: ${line}`),
    );
    expect(domainFiles.length).toBeGreaterThan(50);
    expect(offenders).toEqual([]);
  });

  it("keeps its SQL in files named *-queries.ts, one or more per domain", () => {
    const sqlBuilding = /\b(selectFrom|insertInto|updateTable|deleteFrom)\(|\bsql(`|<|\.raw)/;
    // The engine and migrations (db/), the local stand-ins for Supabase's own services, and the rate
    // limiter, whose SQL is a fragment other statements embed (checkout takes a limit in place_order's call).
    const exempt = (file: string) => file.startsWith("server/db/") || file.startsWith("server/platform/adapters/") || file === "server/security/rate-limit.ts";
    const offenders = files
      .filter(({ file }) => file.startsWith("server/") && !file.endsWith("-queries.ts") && !exempt(file))
      .filter(({ text }) => sqlBuilding.test(text))
      .map(({ file }) => file);
    expect(offenders).toEqual([]);
  });

  it("never makes an INTERNAL_SERVER_ERROR itself: one middleware turns the unexpected into the procedure's message", () => {
    const offenders = files
      .filter(({ file }) => file !== "server/api/middlewares/unexpected-errors.ts")
      .filter(({ text }) => /code:\s*"INTERNAL_SERVER_ERROR"/.test(text))
      .map(({ file }) => file);
    expect(offenders).toEqual([]);
  });
});

/** Tag names of the elements that say `role="dialog"` (or alertdialog) in JSX: a modal made by hand unless the tag is `dialog`. */
function handMadeModals(text: string): string[] {
  return [...text.matchAll(/role=\{?\s*["'`](?:alert)?dialog["'`]/g)]
    .map((match) => /<([A-Za-z][\w.]*)[^<]*$/.exec(text.slice(0, match.index))?.[1] ?? "?")
    .filter((tag) => tag !== "dialog");
}

describe("components (docs/architecture.md#components)", () => {
  const uiFiles = files.filter(({ file }) => file.startsWith("components/") || file.startsWith("app/"));
  /** Files allowed past the limit, each with the reason it cannot be split. None today. */
  const longAllowed: Record<string, string> = {};

  it("are at most 200 lines a file: a longer one does more than one job and is split", () => {
    const long = uiFiles
      .map(({ file, text }) => ({ file, lines: text.split("\n").length - (text.endsWith("\n") ? 1 : 0) }))
      .filter(({ file, lines }) => lines > 200 && !(file in longAllowed))
      .map(({ file, lines }) => `${file}: ${lines} lines`);
    expect(uiFiles.length).toBeGreaterThan(100);
    expect(long).toEqual([]);
  });

  it("make no modal by hand: a dialog is the browser's <dialog>, opened with showModal()", () => {
    expect(handMadeModals(`<div\n  role="dialog"\n  aria-modal="true" onClick={() => close()}>`)).toEqual(["div"]);
    expect(handMadeModals(`<dialog ref={ref} role="dialog" aria-label="Proof">`)).toEqual([]);
    const offenders = uiFiles.flatMap(({ file, text }) => handMadeModals(text).map((tag) => `${file}: <${tag} role="dialog">`));
    expect(offenders).toEqual([]);
  });
});

describe("tests", () => {
  it("in tests/unit open no database and call no router (those are tests/db's and tests/api's)", () => {
    const dir = path.resolve(import.meta.dirname, "../unit");
    const offenders = fs
      .readdirSync(dir)
      .filter((name) => /helpers\/(database|browser)|@\/server\/api\/root/.test(fs.readFileSync(path.join(dir, name), "utf8")));
    expect(offenders).toEqual([]);
  });
});

describe("the tRPC context", () => {
  it("carries the caller's database and the ports, never an RLS-bypassing handle", async () => {
    const db = await freshDatabase();
    try {
      const ctx = await contextAs(db, null);
      expect(Object.keys(ctx)).not.toContain("database");
      for (const [key, value] of Object.entries(ctx)) {
        expect(value instanceof Kysely, `ctx.${key} is a Kysely handle`).toBe(false);
      }
    } finally {
      await db.close();
    }
  });
});

describe("file URLs in Supabase mode", () => {
  const projectUrl = "https://abcdefghijklmnop.supabase.co";

  it("are Supabase Storage's public URLs, as supabase-js builds them", () => {
    const client = createClient(projectUrl, "anon-key", { auth: { persistSession: false, autoRefreshToken: false } });
    for (const object of [
      { bucket: "products-services" as const, path: "1732350000000_chicken pie.png" },
      { bucket: "avatars" as const, path: "6f1c2a10-3b4d-4e5f-8a01-000000000001/1732350000000_me.jpg" },
    ]) {
      expect(supabasePublicUrl(projectUrl, object)).toBe(client.storage.from(object.bucket).getPublicUrl(object.path).data.publicUrl);
    }
    expect(supabasePublicUrl(`${projectUrl}/`, { bucket: "products-services", path: "a.png" })).toBe(
      `${projectUrl}/storage/v1/object/public/products-services/a.png`,
    );
  });

  it("are what a listed product's image points at", async () => {
    const db = await freshDatabase();
    try {
      const [product] = await db.kysely.selectFrom("products").select("id").limit(1).execute();
      await db.kysely.updateTable("products").set({ image_path: "1732350000000_pies.png", available: true }).where("id", "=", product!.id).execute();
      const catalogue = await catalogueFor(db, (object) => supabasePublicUrl(projectUrl, object));
      const listed = (await catalogue.list({ perPage: 100 })).find((each) => each.id === product!.id);
      expect(listed?.imageUrl).toBe(`${projectUrl}/storage/v1/object/public/products-services/1732350000000_pies.png`);
    } finally {
      await db.close();
    }
  });
});
