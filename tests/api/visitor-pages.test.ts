import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { SESSION_COOKIE } from "@/server/platform/adapters/local/session-token";
import { CHANGES_BY_THE_CLOCK } from "@/lib/page-viewer";
import { dropKeptPages, keptPage, MAX_BYTES, MAX_PAGES, PAGE_STALE_MS, PAGE_TTL_MS } from "@/server/kept-pages/kept-store";
import { replay } from "@/server/kept-pages/responses";
import { FILL_HEADER, visitorPageKey } from "@/server/kept-pages/which-requests";

const ORIGIN = "http://127.0.0.1:3999";

/** The visitors' page for `key`, kept or freshly filled. */
const visitorPage = (key: string, origin: string) => keptPage(key, origin, "visitor");

/** A page load as a browser asks for it, unless `headers` says otherwise. */
function request(path: string, headers: Record<string, string> = {}, method = "GET") {
  return { method, url: `http://shop.example${path}`, headers: new Headers({ accept: "text/html,application/xhtml+xml,*/*;q=0.8", "sec-fetch-dest": "document", ...headers }) };
}

/** A rendered page as Next.js answers the fill: the nonce in the policy, the scripts and a header. */
function rendered(nonce: string, body = "page", init: { status?: number; headers?: Record<string, string> } = {}) {
  return new Response(`<html><script nonce="${nonce}">${body}</script></html>`, {
    status: init.status ?? 200,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "content-security-policy": `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'`,
      link: `</_next/static/chunks/a.css>; rel=preload; as="style"; nonce="${nonce}"`,
      "x-content-type-options": "nosniff",
      ...init.headers,
    },
  });
}

describe("which requests share a visitor page", () => {
  it("keeps the storefront's pages for visitors", () => {
    for (const path of ["/", "/about", "/contact", "/products", "/products?category=Food%20Products&sort=price-asc&page=2", "/products/0b5c6f2e-94c8-4c1c-9a43-8e1f1c0a2b3d"]) {
      expect(visitorPageKey(request(path)), path).toBe(path);
    }
    // A client that is not a browser, asking for HTML.
    expect(visitorPageKey({ method: "GET", url: "http://shop.example/products", headers: new Headers({ accept: "text/html" }) })).toBe("/products");
  });

  it("never for a signed-in caller, a client navigation, another method, a search or another page", () => {
    const refused: [string, Record<string, string>, string?][] = [
      ["/products", { cookie: `theme=dark; ${SESSION_COOKIE}=token` }],
      ["/products", { cookie: "sb-abc-auth-token=x" }],
      ["/products", { rsc: "1" }],
      ["/products", { "next-router-prefetch": "1" }],
      // A client navigation or prefetch as the proxy sees it: RSC header and _rsc hidden by Next.js.
      ["/products", { accept: "*/*", "sec-fetch-dest": "empty" }],
      ["/products", { "sec-fetch-dest": "empty" }],
      ["/products", { accept: "*/*" }],
      ["/products", { "sec-fetch-dest": "iframe" }],
      ["/products", {}, "POST"],
      ["/products?q=pies", {}],
      ["/products?utm_source=x", {}],
      ["/about?x=1", {}],
      ["/cart", {}],
      ["/profile", {}],
      ["/admin/dashboard", {}],
      ["/products/not-a-product-id", {}],
      [`/products?category=${"x".repeat(300)}`, {}],
    ];
    for (const [path, headers, method] of refused) {
      expect(visitorPageKey(request(path, headers, method)), `${method ?? "GET"} ${path} ${JSON.stringify(headers)}`).toBeNull();
    }
    expect(visitorPageKey(request("/products", { cookie: "theme=dark" }))).toBe("/products");
  });
});

describe("kept pages", () => {
  let fetchMock: ReturnType<typeof vi.fn>;
  let renders = 0;

  beforeEach(() => {
    dropKeptPages();
    renders = 0;
    fetchMock = vi.fn(async (url: URL, init: RequestInit) => {
      // The server's request to itself is rendered, never answered from the kept pages.
      expect(visitorPageKey({ method: "GET", url: url.toString(), headers: new Headers(init.headers) })).toBeNull();
      renders++;
      return rendered(`rendered-nonce-${renders}`, `render ${renders} of ${url.pathname}`);
    });
    vi.stubGlobal("fetch", fetchMock);
  });

  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it("renders a page once and gives each response its own nonce, in the body and the headers", async () => {
    const first = replay((await visitorPage("/products", ORIGIN))!, "fresh-one", "script-src 'nonce-fresh-one'");
    const second = replay((await visitorPage("/products", ORIGIN))!, "fresh-two", "script-src 'nonce-fresh-two'");
    expect(renders).toBe(1);
    expect(await first.text()).toBe(`<html><script nonce="fresh-one">render 1 of /products</script></html>`);
    expect(await second.text()).toBe(`<html><script nonce="fresh-two">render 1 of /products</script></html>`);
    expect(second.headers.get("content-security-policy")).toBe("script-src 'nonce-fresh-two'");
    expect(second.headers.get("link")).toContain(`nonce="fresh-two"`);
    expect(second.headers.get("x-content-type-options")).toBe("nosniff");
    expect(JSON.stringify([...second.headers])).not.toContain("rendered-nonce-1");
  });

  it("asks this server for the page as a visitor, with the fill header", async () => {
    await visitorPage("/about", ORIGIN);
    const [url, init] = fetchMock.mock.calls[0]! as [URL, RequestInit];
    expect(url.toString()).toBe(`${ORIGIN}/about`);
    expect(new Headers(init.headers).has(FILL_HEADER)).toBe(true);
    expect(new Headers(init.headers).get("cookie")).toBeNull();
  });

  it("shares one render between concurrent misses", async () => {
    const pages = await Promise.all(Array.from({ length: 20 }, () => visitorPage("/", ORIGIN)));
    expect(renders).toBe(1);
    expect(new Set(pages.map((page) => page!.body)).size).toBe(1);
  });

  it("drops every page when the catalogue changes, including a render under way", async () => {
    await visitorPage("/products", ORIGIN);
    dropKeptPages();
    expect((await visitorPage("/products", ORIGIN))!.body).toContain("render 2");

    // A render that began before a change is handed to its callers but not kept.
    const underWay = visitorPage("/about", ORIGIN);
    dropKeptPages();
    expect((await underWay)!.body).toContain("render 3");
    expect((await visitorPage("/about", ORIGIN))!.body).toContain("render 4");
  });

  it("after the time to live, serves the kept page while it renders it again once, for the requests after", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    await visitorPage("/contact", ORIGIN);
    vi.setSystemTime(Date.now() + PAGE_TTL_MS);
    const meanwhile = await Promise.all([visitorPage("/contact", ORIGIN), visitorPage("/contact", ORIGIN)]);
    expect(meanwhile.map((page) => page!.body)).toEqual([expect.stringContaining("render 1"), expect.stringContaining("render 1")]);
    await vi.waitFor(async () => expect((await visitorPage("/contact", ORIGIN))!.body).toContain("render 2"));
    expect(renders).toBe(2);
  });

  it("renders for the request a page older than the time to live and PAGE_STALE_MS, or one that changes by the clock", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    await visitorPage("/contact", ORIGIN);
    vi.setSystemTime(Date.now() + PAGE_TTL_MS + PAGE_STALE_MS);
    expect((await visitorPage("/contact", ORIGIN))!.body).toContain("render 2");

    // A bookable service's free times are never served past the time to live.
    fetchMock.mockImplementation(async () => rendered(`rendered-nonce-${++renders}`, `render ${renders} <div ${CHANGES_BY_THE_CLOCK}="">10:00</div>`));
    const service = "/products/00000000-0000-4000-8000-000000000001";
    expect((await visitorPage(service, ORIGIN))!.body).toContain("render 3");
    vi.setSystemTime(Date.now() + PAGE_TTL_MS);
    expect((await visitorPage(service, ORIGIN))!.body).toContain("render 4");
  });

  it("keeps at most MAX_PAGES, dropping the least recently used", async () => {
    for (let page = 1; page <= MAX_PAGES + 1; page++) await visitorPage(`/products?page=${page}`, ORIGIN);
    expect(renders).toBe(MAX_PAGES + 1);
    await visitorPage(`/products?page=${MAX_PAGES + 1}`, ORIGIN);
    expect(renders).toBe(MAX_PAGES + 1);
    await visitorPage("/products?page=1", ORIGIN);
    expect(renders).toBe(MAX_PAGES + 2);
  });

  it("keeps at most MAX_BYTES of pages, dropping the least recently used", async () => {
    // A little over a quarter of the budget: a kept page takes 3 bytes a character (its text, and its bytes for replaying).
    const big = "x".repeat(Math.floor(MAX_BYTES / 3 / 4) + 1);
    fetchMock.mockImplementation(async (url: URL) => {
      renders++;
      return rendered("n", `${url.search}${big}`);
    });
    for (const page of [1, 2, 3, 4]) await visitorPage(`/products?page=${page}`, ORIGIN);
    expect(renders).toBe(4);
    await visitorPage("/products?page=4", ORIGIN);
    await visitorPage("/products?page=2", ORIGIN);
    expect(renders).toBe(4);
    await visitorPage("/products?page=1", ORIGIN);
    expect(renders).toBe(5);
  });

  it("hands a not-found answer to its callers without keeping it, and never shares a cookie", async () => {
    fetchMock.mockImplementation(async () => {
      renders++;
      return rendered(`n${renders}`, "Product not found.", { status: 404 });
    });
    expect((await visitorPage("/products/0b5c6f2e-94c8-4c1c-9a43-8e1f1c0a2b3d", ORIGIN))!.status).toBe(404);
    await visitorPage("/products/0b5c6f2e-94c8-4c1c-9a43-8e1f1c0a2b3d", ORIGIN);
    expect(renders).toBe(2);

    fetchMock.mockImplementation(async () => rendered("n", "page", { headers: { "set-cookie": "a=b" } }));
    expect(await visitorPage("/about", ORIGIN)).toBeNull();
  });

  it("answers null when the server cannot reach itself, so the request is rendered as usual", async () => {
    fetchMock.mockRejectedValue(new TypeError("fetch failed"));
    expect(await visitorPage("/about", ORIGIN)).toBeNull();
  });
});
