/**
 * The kept pages as the proxy meets them: one entry (`serveKept`), which serves what it can and
 * renews a session only for a signed-in caller; and a room nobody else reaches into.
 */
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { VIEWER_SLOTS } from "@/lib/page-viewer";
import { templateRoleOf } from "@/server/auth/page-viewer";
import { dropKeptPages } from "@/server/kept-pages/kept-store";
import { serveKept } from "@/server/kept-pages/serve";
import { provideSignedInLookup } from "@/server/kept-pages/signed-in-viewers";
import { SESSION_COOKIE } from "@/server/platform/adapters/local/session-token";

const ORIGIN = "http://127.0.0.1:3999";
const PAGE_LOAD = { accept: "text/html", "sec-fetch-dest": "document" };

function page(url: string, headers: Record<string, string> = {}): Request {
  return new Request(`http://shop.example${url}`, { headers: { ...PAGE_LOAD, ...headers } });
}

describe("serveKept", () => {
  let steps: string[] = [];
  const parts = { nonce: "fresh", policy: "script-src 'nonce-fresh'", renewSession: async () => void steps.push("renew") };

  beforeEach(() => {
    dropKeptPages();
    steps = [];
    vi.stubGlobal(
      "fetch",
      vi.fn(async (url: URL, init: RequestInit) => {
        steps.push(`fill ${url.pathname}`);
        if (url.pathname.startsWith("/api/")) return Response.json({ result: { data: { json: "answer" } } });
        const role = templateRoleOf(new Headers(init.headers));
        const header = role ? `<span>Welcome, ${VIEWER_SLOTS.displayName}</span>` : `<a href="/auth/signin">Sign In</a>`;
        return new Response(`<html><head></head><body>${header}<script nonce="old">x</script></body></html>`, {
          headers: { "content-type": "text/html; charset=utf-8", "content-security-policy": "script-src 'nonce-old'" },
        });
      }),
    );
    provideSignedInLookup({
      userOf: async (cookie) => {
        steps.push("lookup");
        if (!cookie.includes(SESSION_COOKIE)) return null;
        return { user: { id: "u1", email: "a@b.c", displayName: "Thandi", fullName: "Thandi", role: "user", avatarPath: null }, cartCount: 2 };
      },
      publicUrl: (object) => `/files/${object.bucket}/${object.path}`,
    });
  });

  afterEach(() => vi.unstubAllGlobals());

  it("serves a visitor's page with the response's nonce, renewing no session", async () => {
    const response = await serveKept(page("/about"), parts, ORIGIN);
    expect(await response!.text()).toContain(`<script nonce="fresh">`);
    expect(response!.headers.get("content-security-policy")).toBe(parts.policy);
    expect(steps).toEqual(["fill /about"]);
  });

  it("renews a signed-in caller's session before telling who they are, then fills their role's template", async () => {
    const response = await serveKept(page("/about", { cookie: `${SESSION_COOKIE}=token` }), parts, ORIGIN);
    const html = await response!.text();
    expect(html).toContain("Welcome, Thandi");
    expect(html).toContain(`<script nonce="fresh">`);
    expect(steps).toEqual(["renew", "lookup", "fill /about"]);
  });

  it("answers the catalogue's queries of callers without a session", async () => {
    const response = await serveKept(new Request("http://shop.example/api/trpc/catalogue.list"), parts, ORIGIN);
    expect(await response!.json()).toEqual({ result: { data: { json: "answer" } } });
    expect(steps).toEqual(["fill /api/trpc/catalogue.list"]);
  });

  it("leaves everything else to the render", async () => {
    expect(await serveKept(page("/cart", { cookie: `${SESSION_COOKIE}=token` }), parts, ORIGIN)).toBeNull();
    // A session the platform cannot tell cheaply (here: Supabase's) is rendered for its caller.
    expect(await serveKept(page("/about", { cookie: "sb-project-auth-token=token" }), parts, ORIGIN)).toBeNull();
    // Outside a production server (`next dev`, tests) nothing is kept.
    expect(await serveKept(page("/about"), parts, null)).toBeNull();
    expect(steps).toEqual(["renew", "lookup"]);
  });
});

describe("the kept pages' room", () => {
  const SRC = path.resolve(import.meta.dirname, "../../src");
  const sourceFiles = (dir: string): string[] =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) return sourceFiles(full);
      return /\.(ts|tsx|mjs)$/.test(entry.name) ? [full] : [];
    });

  it("is reached only by the proxy (serveKept), the catalogue (dropKeptPages) and the platform (who is signed in)", () => {
    const reaching = sourceFiles(SRC)
      .map((file) => path.relative(SRC, file))
      .filter((file) => !file.startsWith("server/kept-pages/"))
      .filter((file) => /["']@\/server\/kept-pages\//.test(fs.readFileSync(path.join(SRC, file), "utf8")))
      .sort();
    expect(reaching).toEqual(["proxy.ts", "server/catalogue/catalogue.ts", "server/platform/signed-in-lookup.ts", "server/platform/start-up.ts"]);
  });
});
