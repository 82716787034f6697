/**
 * Signed-in users' storefront pages from their role's kept template: which requests, which
 * template, and each response filled with its own caller's values only.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { AVATAR_PLACEHOLDER, VIEWER_DATA_ID, VIEWER_SLOTS, type PageViewerData } from "@/lib/page-viewer";
import { TEMPLATE_HEADER, templateRequest, templateRoleOf } from "@/server/auth/page-viewer";
import type { SessionUserWithCart } from "@/server/auth/session-user";
import { dropKeptPages, keptPage } from "@/server/kept-pages/kept-store";
import { replaySignedIn } from "@/server/kept-pages/responses";
import { signedInPage } from "@/server/kept-pages/serve";
import { provideSignedInLookup } from "@/server/kept-pages/signed-in-viewers";
import { FILL_HEADER, signedInPageKey } from "@/server/kept-pages/which-requests";
import { SESSION_COOKIE } from "@/server/platform/adapters/local/session-token";

const ORIGIN = "http://127.0.0.1:3999";

function request(path: string, headers: Record<string, string> = {}) {
  return { method: "GET", url: `http://shop.example${path}`, headers: new Headers({ accept: "text/html", "sec-fetch-dest": "document", ...headers }) };
}

/** A role's template as the app renders it when this process asks for one; a visitor's page otherwise. */
function renderedFor(requestHeaders: Headers, nonce: string, count: number): Response {
  const role = templateRoleOf(requestHeaders);
  const header = role
    ? `<header><a data-role="${role}">${role === "admin" ? "Dashboard" : "Cart"}<span class="badge ${VIEWER_SLOTS.cartDisplay}">${VIEWER_SLOTS.cartCount}</span></a>` +
      `<img src="${VIEWER_SLOTS.avatarUrl}"><span data-testid="greeting">Welcome, <span>${VIEWER_SLOTS.displayName}</span></span></header>`
    : `<header><a href="/auth/signin">Sign In</a></header>`;
  return new Response(`<html><head><link rel="preload" as="image" href="${role ? VIEWER_SLOTS.avatarUrl : "/x.png"}"></head><body>${header}<script nonce="${nonce}">render ${count}</script></body></html>`, {
    headers: {
      "content-type": "text/html; charset=utf-8",
      "content-security-policy": `script-src 'nonce-${nonce}'`,
      // React's early hints, which name the picture's slot in a template.
      link: `</a.css>; rel=preload; as="style"; nonce="${nonce}"${role ? `, <${VIEWER_SLOTS.avatarUrl}>; rel=preload; as="image"` : ""}, </b.css>; rel=preload; as="style"`,
    },
  });
}

const thandi: PageViewerData = { id: "7d2c3b6e-1111-4c1c-9a43-8e1f1c0a2b3d", displayName: `Thandi <b>"O'Neil"</b> & co`, avatarUrl: "/files/avatars/t/me.png?a=1&b=2", cartCount: 3 };
const sipho: PageViewerData = { id: "7d2c3b6e-2222-4c1c-9a43-8e1f1c0a2b3d", displayName: "Sipho", avatarUrl: "/avatar-placeholder.svg", cartCount: 0 };

/** What the platform tells of a signed-in caller whose page shows `data`. */
function signedIn(data: PageViewerData, role: "user" | "admin" = "user"): SessionUserWithCart {
  const avatarPath = data.avatarUrl === AVATAR_PLACEHOLDER ? null : data.avatarUrl.replace("/files/avatars/", "");
  return { user: { id: data.id, email: null, displayName: data.displayName, fullName: data.displayName, role, avatarPath }, cartCount: data.cartCount };
}

describe("which requests get a signed-in page from a template", () => {
  it("a signed-in page load of a storefront page, and nothing else", () => {
    const session = { cookie: `${SESSION_COOKIE}=token` };
    expect(signedInPageKey(request("/products?category=Food", session))).toBe("/products?category=Food");
    expect(signedInPageKey(request("/products"))).toBeNull();
    expect(signedInPageKey(request("/cart", session))).toBeNull();
    expect(signedInPageKey(request("/products?q=pie", session))).toBeNull();
    expect(signedInPageKey(request("/products", { ...session, "sec-fetch-dest": "empty", accept: "*/*" }))).toBeNull();
    expect(signedInPageKey(request("/products", { ...session, [FILL_HEADER]: "1" }))).toBeNull();
  });

  it("renders a template only for this process's own fill", () => {
    expect(templateRoleOf(new Headers(templateRequest("admin")))).toBe("admin");
    expect(templateRoleOf(new Headers())).toBeNull();
    expect(templateRoleOf(new Headers({ [FILL_HEADER]: "1" }))).toBeNull();
    expect(templateRoleOf(new Headers({ [TEMPLATE_HEADER]: "guessed-secret admin" }))).toBeNull();
  });
});

describe("a signed-in page", () => {
  let fills: Headers[] = [];
  let users = new Map<string, SessionUserWithCart | null>();

  beforeEach(() => {
    dropKeptPages();
    fills = [];
    vi.stubGlobal(
      "fetch",
      vi.fn(async (_url: URL, init: RequestInit) => {
        const fill = new Headers(init.headers);
        fills.push(fill);
        return renderedFor(fill, `rendered-${fills.length}`, fills.length);
      }),
    );
    users = new Map();
    provideSignedInLookup({ userOf: async (cookie) => users.get(cookie) ?? null, publicUrl: (object) => `/files/${object.bucket}/${object.path}` });
  });

  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("fills one template per role, kept apart from the visitors' page", async () => {
    users.set("a", signedIn(thandi));
    users.set("b", signedIn(sipho));
    users.set("c", signedIn({ ...sipho, id: "admin", displayName: "Boss" }, "admin"));
    const visitor = await keptPage("/products", ORIGIN, "visitor");
    const forA = await signedInPage("/products", "a", ORIGIN);
    const forB = await signedInPage("/products", "b", ORIGIN);
    const forC = await signedInPage("/products", "c", ORIGIN);
    expect(fills).toHaveLength(3);
    expect(visitor!.body).toContain("Sign In");
    expect(forA!.page).toBe(forB!.page);
    expect(forA!.page.body).toContain(`data-role="user"`);
    expect(forC!.page.body).toContain(`data-role="admin"`);
    // The kept templates hold nobody's values.
    for (const page of [forA!.page, forC!.page]) {
      for (const value of ["Thandi", "Sipho", "Boss", thandi.id, "me.png"]) expect(page.body).not.toContain(value);
    }
  });

  it("fills each response with its own caller's values, escaped, and their nonce", async () => {
    users.set("a", signedIn(thandi));
    users.set("b", signedIn(sipho));
    const forA = await signedInPage("/", "a", ORIGIN);
    const forB = await signedInPage("/", "b", ORIGIN);
    const a = replaySignedIn(forA!.page, forA!.viewer.data, "nonce-a", "script-src 'nonce-nonce-a'")!;
    const b = replaySignedIn(forB!.page, forB!.viewer.data, "nonce-b", "script-src 'nonce-nonce-b'")!;
    const htmlA = await a.text();
    const htmlB = await b.text();
    expect(htmlA).toContain(`Welcome, <span>Thandi &lt;b&gt;&quot;O&#x27;Neil&quot;&lt;/b&gt; &amp; co</span>`);
    expect(htmlA).toContain(`<img src="/files/avatars/t/me.png?a=1&amp;b=2">`);
    expect(htmlA).toContain(`<link rel="preload" as="image" href="/files/avatars/t/me.png?a=1&amp;b=2">`);
    expect(htmlA).toContain(`<span class="badge inline-flex">3</span>`);
    expect(htmlB).toContain(`<span class="badge hidden">0</span>`);
    expect(htmlB).toContain("Welcome, <span>Sipho</span>");
    expect(htmlA).not.toContain("Sipho");
    expect(htmlB).not.toContain("Thandi");
    expect(htmlA).toContain(`<script nonce="nonce-a">`);
    expect(a.headers.get("link")).toBe(`</a.css>; rel=preload; as="style"; nonce="nonce-a", </b.css>; rel=preload; as="style"`);
    expect(a.headers.get("content-security-policy")).toBe("script-src 'nonce-nonce-a'");
    expect(htmlA).not.toContain("rendered-1");
    expect(htmlA).not.toContain("__shop_viewer_");

    // The values for hydration, in the head, unable to close their script.
    const data = new RegExp(`<script id="${VIEWER_DATA_ID}" type="application/json">(.*?)</script></head>`).exec(htmlA)?.[1];
    expect(JSON.parse(data!)).toEqual(thandi);
    expect(data).not.toContain("<");
  });

  it("is rendered as usual where the caller cannot be told, or the template is not one", async () => {
    expect(await signedInPage("/", "unknown", ORIGIN)).toBeNull();
    // Another process rendered the fill (its secret differs): a visitor's page is no template.
    users.set("a", signedIn(thandi));
    vi.stubGlobal("fetch", async () => renderedFor(new Headers(), "n", 1));
    expect(await signedInPage("/about", "a", ORIGIN)).toBeNull();
    expect(await keptPage("/about", ORIGIN, "user")).toBeNull();
    // A slot the replay does not know is never served empty.
    const page = { status: 200, headers: [], body: "<html><head></head><body>__shop_viewer_new__</body></html>", nonce: null, changesByTheClock: false };
    expect(replaySignedIn(page, thandi, "n", "p")).toBeNull();
  });
});
