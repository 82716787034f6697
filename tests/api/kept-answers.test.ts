/** The catalogue's public API answers, kept like the visitors' pages. */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { dropKeptPages, keptPage } from "@/server/kept-pages/kept-store";
import { replayAnswer } from "@/server/kept-pages/responses";
import { FILL_HEADER, keptAnswerKey } from "@/server/kept-pages/which-requests";
import { SESSION_COOKIE } from "@/server/platform/adapters/local/session-token";

const ORIGIN = "http://127.0.0.1:3999";
/** The kept (or freshly filled) answer for `key`. */
const keptAnswer = (key: string, origin: string) => keptPage(key, origin, "answer");
const input = (json: unknown) => `input=${encodeURIComponent(JSON.stringify({ json }))}`;
const get = (path: string, headers: Record<string, string> = {}) => ({ method: "GET", url: `http://shop.example${path}`, headers: new Headers(headers) });

describe("which API calls are answered from memory", () => {
  it("the catalogue's queries of callers without a session, searches apart", () => {
    for (const path of [
      "/api/trpc/catalogue.list",
      `/api/trpc/catalogue.list?${input({ category: "Food Products", page: 2 })}`,
      `/api/trpc/catalogue.list,catalogue.categories?batch=1&input=${encodeURIComponent(JSON.stringify({ 0: { json: {} }, 1: { json: null } }))}`,
    ]) {
      expect(keptAnswerKey(get(path)), path).toBe(path);
    }
    for (const [path, headers] of [
      [`/api/trpc/catalogue.list?${input({ search: "pie" })}`, {}],
      [`/api/trpc/catalogue.list,catalogue.categories?batch=1&input=${encodeURIComponent(JSON.stringify({ 0: { json: { search: "pie" } }, 1: { json: null } }))}`, {}],
      ["/api/trpc/catalogue.list,cart.count?batch=1", {}],
      ["/api/trpc/cart.count", {}],
      ["/api/trpc/adminOrders.list", {}],
      ["/api/trpc/catalogue.list", { cookie: `${SESSION_COOKIE}=token` }],
      ["/api/trpc/catalogue.list", { [FILL_HEADER]: "1" }],
      ["/api/trpc/catalogue.list?utm=1", {}],
      ["/products", {}],
    ] as const) {
      expect(keptAnswerKey(get(path, headers)), path).toBeNull();
    }
    expect(keptAnswerKey({ ...get("/api/trpc/catalogue.list"), method: "POST" })).toBeNull();
  });
});

describe("a kept answer", () => {
  let fills = 0;
  beforeEach(() => {
    dropKeptPages();
    fills = 0;
    vi.stubGlobal(
      "fetch",
      vi.fn(async (url: URL, init: RequestInit) => {
        fills++;
        expect(new Headers(init.headers).has(FILL_HEADER)).toBe(true);
        const status = url.pathname.endsWith("byId") ? 404 : 200;
        return Response.json({ result: { data: { json: `answer ${fills}` } } }, { status });
      }),
    );
  });
  afterEach(() => vi.unstubAllGlobals());

  it("is asked for once and dropped with the kept pages on a catalogue change", async () => {
    const first = await keptAnswer("/api/trpc/catalogue.list", ORIGIN);
    const again = await keptAnswer("/api/trpc/catalogue.list", ORIGIN);
    expect(fills).toBe(1);
    expect(await replayAnswer(again!).json()).toEqual({ result: { data: { json: "answer 1" } } });
    expect(replayAnswer(first!).headers.get("content-type")).toContain("application/json");
    dropKeptPages();
    expect(await replayAnswer((await keptAnswer("/api/trpc/catalogue.list", ORIGIN))!).json()).toEqual({ result: { data: { json: "answer 2" } } });
  });

  it("keeps no error", async () => {
    expect((await keptAnswer("/api/trpc/catalogue.byId", ORIGIN))!.status).toBe(404);
    await keptAnswer("/api/trpc/catalogue.byId", ORIGIN);
    expect(fills).toBe(2);
  });
});
