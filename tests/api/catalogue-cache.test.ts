import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { ANON, runAs } from "@/server/db/as-caller";
import { listProducts } from "@/server/catalogue/catalogue-queries";
import { freshDatabase, type TestDatabase } from "../helpers/database";

/**
 * Which catalogue reads the storefront keeps in Next's cache: only a bounded set, so invented
 * URLs (searches, deep pages, unknown categories or ids) cannot fill it or push the shop's own
 * pages out of it. Next's cache is replaced by a pass-through that records each cached call.
 */
const state = vi.hoisted(() => ({ db: undefined as unknown, cached: [] as unknown[][] }));

vi.mock("server-only", () => ({}));
vi.mock("next/cache", () => ({
  unstable_cache:
    <A extends unknown[], R>(work: (...args: A) => Promise<R>, keyParts: string[]) =>
    (...args: A) => {
      state.cached.push([keyParts[0], ...args]);
      return work(...args);
    },
}));
vi.mock("@/server/db", () => ({ getDatabase: () => Promise.resolve(state.db) }));

const { CACHED_PAGES, getProduct, getProducts, getRelatedProducts } = await import("@/server/catalogue/cached-catalogue");

let db: TestDatabase;

beforeAll(async () => {
  db = await freshDatabase();
  state.db = db;
});

afterAll(async () => {
  await db?.close();
});

beforeEach(() => {
  state.cached = [];
});

const cachedKeys = () => state.cached.map(([key]) => key);

describe("the catalogue cache", () => {
  it("keeps the listing's first pages, per category", async () => {
    const all = await getProducts({});
    const food = await getProducts({ category: "Food Products", page: CACHED_PAGES });
    expect(cachedKeys().filter((key) => key === "catalogue:list")).toHaveLength(2);
    expect(all).toEqual(await runAs(db.kysely, ANON, (trx) => listProducts(trx, {})));
    expect(food).toEqual([]);
  });

  it("reads searches, deeper or longer pages and unknown categories from the database each time", async () => {
    const pies = await getProducts({ search: "pies" });
    const deep = await getProducts({ page: CACHED_PAGES + 1 });
    const unknown = await getProducts({ category: `Nothing ${randomUUID()}` });
    const long = await getProducts({ perPage: 100 });
    expect(cachedKeys()).not.toContain("catalogue:list");
    expect(pies.map((p) => p.name)).toContain("Steak & Kidney Pies (6-pack)");
    expect(deep).toEqual([]);
    expect(unknown).toEqual([]);
    expect(long).toEqual(await runAs(db.kysely, ANON, (trx) => listProducts(trx, { perPage: 100 })));
  });

  it("keeps known products under one key whatever the id's case, and never caches unknown ids", async () => {
    const [first] = await getProducts({});
    const product = await getProduct(first!.id.toUpperCase());
    expect(product?.id).toBe(first!.id);
    expect(state.cached).toContainEqual(["catalogue:product", first!.id]);

    state.cached = [];
    expect(await getProduct(randomUUID())).toBeUndefined();
    expect(await getProduct("not-a-product")).toBeUndefined();
    const related = await getRelatedProducts(randomUUID());
    expect(related).toHaveLength(3);
    expect(cachedKeys()).not.toContain("catalogue:product");
    expect(cachedKeys()).not.toContain("catalogue:related");
  });
});
