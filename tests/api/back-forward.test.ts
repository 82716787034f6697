/**
 * What the browser may keep of the shop's pages (src/server/security/page-caching.ts): a
 * visitor's storefront page may go in the back/forward cache (`private, no-cache`); a signed-in
 * caller's never (`no-store`), and signing out or deleting the account clears what was kept.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { VIEWER_SLOTS } from "@/lib/page-viewer";
import { templateRoleOf } from "@/server/auth/page-viewer";
import { dropKeptPages } from "@/server/kept-pages/kept-store";
import { backForwardKeepable, serveKept } from "@/server/kept-pages/serve";
import { provideSignedInLookup } from "@/server/kept-pages/signed-in-viewers";
import { FILL_HEADER } from "@/server/kept-pages/which-requests";
import { SESSION_COOKIE } from "@/server/platform/adapters/local/session-token";
import { browserCacheHeaders, PERSONAL_PAGE_CACHE_CONTROL, VISITOR_PAGE_CACHE_CONTROL } from "@/server/security/page-caching";

const ORIGIN = "http://127.0.0.1:3999";
const PAGE_LOAD = { accept: "text/html,application/xhtml+xml,*/*;q=0.8", "sec-fetch-dest": "document" };

function request(path: string, headers: Record<string, string> = {}, method = "GET") {
  return { method, url: `http://shop.example${path}`, headers: new Headers({ ...PAGE_LOAD, ...headers }) };
}

describe("which pages the browser may keep for Back", () => {
  it("a visitor's storefront pages, loaded or fetched by a client navigation", () => {
    for (const path of ["/", "/about", "/contact", "/products", "/products?category=Food%20Products&page=2", "/products?q=pies", "/products/0b5c6f2e-94c8-4c1c-9a43-8e1f1c0a2b3d"]) {
      expect(backForwardKeepable(request(path)), path).toBe(true);
    }
    expect(backForwardKeepable(request("/products", { accept: "*/*", "sec-fetch-dest": "empty", rsc: "1" }))).toBe(true);
    expect(backForwardKeepable(request("/products", { cookie: "theme=dark" }))).toBe(true);
  });

  it("never a page with a session cookie of any run mode, another page, another method or the server's own fill", () => {
    const refused: [string, Record<string, string>, string?][] = [
      ["/products", { cookie: `theme=dark; ${SESSION_COOKIE}=token` }],
      ["/", { cookie: "sb-abc-auth-token=x" }],
      ["/products", {}, "POST"],
      ["/products", { [FILL_HEADER]: "1" }],
      ["/cart", {}],
      ["/checkout", {}],
      ["/profile", {}],
      ["/admin/orders", {}],
      ["/auth/signin", {}],
      ["/privacy", {}],
      ["/products/not-a-product-id", {}],
    ];
    for (const [path, headers, method] of refused) {
      expect(backForwardKeepable(request(path, headers, method)), `${method ?? "GET"} ${path} ${JSON.stringify(headers)}`).toBe(false);
    }
  });
});

describe("kept pages' Cache-Control", () => {
  const parts = { nonce: "fresh", policy: "script-src 'nonce-fresh'", renewSession: async () => {} };

  beforeEach(() => {
    dropKeptPages();
    vi.stubGlobal(
      "fetch",
      vi.fn(async (_url: URL, init: RequestInit) => {
        const role = templateRoleOf(new Headers(init.headers));
        const header = role ? `<span>Welcome, ${VIEWER_SLOTS.displayName}</span>` : `<a href="/auth/signin">Sign In</a>`;
        // As Next.js renders every page for the fill: not to be stored.
        return new Response(`<html><head></head><body>${header}<script nonce="old">x</script></body></html>`, {
          headers: { "content-type": "text/html; charset=utf-8", "content-security-policy": "script-src 'nonce-old'", "cache-control": PERSONAL_PAGE_CACHE_CONTROL },
        });
      }),
    );
    provideSignedInLookup({
      userOf: async (cookie) =>
        cookie.includes(SESSION_COOKIE) ? { user: { id: "u1", email: "a@b.c", displayName: "Thandi", fullName: "Thandi", role: "user", avatarPath: null }, cartCount: 2 } : null,
      publicUrl: (object) => `/files/${object.bucket}/${object.path}`,
    });
  });

  afterEach(() => vi.unstubAllGlobals());

  it("a visitor's kept page may be kept by the browser, never by a shared cache", async () => {
    const response = await serveKept(new Request("http://shop.example/about", { headers: PAGE_LOAD }), parts, ORIGIN);
    expect(response!.headers.get("cache-control")).toBe(VISITOR_PAGE_CACHE_CONTROL);
    expect(VISITOR_PAGE_CACHE_CONTROL).toMatch(/\bprivate\b/);
    expect(VISITOR_PAGE_CACHE_CONTROL).not.toMatch(/no-store/);
  });

  it("a signed-in caller's page, filled from the template, is never stored", async () => {
    const response = await serveKept(new Request("http://shop.example/about", { headers: { ...PAGE_LOAD, cookie: `${SESSION_COOKIE}=token` } }), parts, ORIGIN);
    expect(await response!.text()).toContain("Welcome, Thandi");
    expect(response!.headers.get("cache-control")).toBe(PERSONAL_PAGE_CACHE_CONTROL);
    expect(PERSONAL_PAGE_CACHE_CONTROL).toMatch(/\bno-store\b/);
  });
});

describe("signing out clears what the browser kept", () => {
  it("a successful sign-out or account deletion, alone or in a batch, answers Clear-Site-Data: \"cache\"", () => {
    for (const paths of [["auth.signOut"], ["profile.deleteAccount"], ["cart.count", "auth.signOut"]]) {
      expect(browserCacheHeaders({ paths, type: "mutation", errors: [] })?.get("clear-site-data"), paths.join()).toBe('"cache"');
    }
  });

  it("nothing else, and not a sign-out that failed", () => {
    expect(browserCacheHeaders({ paths: ["auth.signIn"], type: "mutation", errors: [] })).toBeUndefined();
    expect(browserCacheHeaders({ paths: ["auth.session"], type: "query", errors: [] })).toBeUndefined();
    expect(browserCacheHeaders({ paths: ["auth.signOut"], type: "mutation", errors: [new Error("no")] })).toBeUndefined();
    expect(browserCacheHeaders({ paths: undefined, type: "mutation", errors: [] })).toBeUndefined();
  });
});
