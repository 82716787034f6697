import { TRPCError } from "@trpc/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PRODUCTS_PER_PAGE } from "@/lib/constants";
import { messages } from "@/lib/messages";
import { callerAs, type Caller } from "../helpers/browser";
import { freshDatabase, type TestDatabase } from "../helpers/database";

let db: TestDatabase;
let caller: Caller;
const visitor = () => caller;

beforeAll(async () => {
  db = await freshDatabase();
  caller = await callerAs(db, null);
});

afterAll(async () => {
  await db?.close();
});

async function notFound(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TRPCError);
  expect((error as TRPCError).code).toBe("NOT_FOUND");
  expect((error as TRPCError).message).toBe(messages.catalogue.productNotFound);
}

describe("catalogue router", () => {
  describe("list", () => {
    it("returns the seeded catalogue, newest first, with prices as numbers in rands", async () => {
      const products = await visitor().catalogue.list();
      expect(products.length).toBeGreaterThanOrEqual(16);
      const times = products.map((p) => Date.parse(p.createdAt));
      expect(times).toEqual([...times].sort((a, b) => b - a));
      for (const product of products) {
        expect(product.price).toBeGreaterThan(0);
        expect(Math.round(product.price * 100)).toBe(product.price * 100);
        expect(product.imageUrl).toMatch(/^\/catalogue\/.+\.svg$/);
      }
    });

    it("filters by category", async () => {
      const food = await visitor().catalogue.list({ category: "Food Products" });
      expect(food.length).toBeGreaterThan(0);
      expect(food.every((p) => p.category === "Food Products")).toBe(true);
      expect(await visitor().catalogue.list({ category: "No such category" })).toEqual([]);
    });

    it("searches name and description, case-insensitively, with wildcards taken literally", async () => {
      const all = await visitor().catalogue.list();
      const target = all[0]!;
      const word = target.name.split(" ")[0]!.toUpperCase();
      const found = await visitor().catalogue.list({ search: word });
      expect(found.map((p) => p.id)).toContain(target.id);
      expect(await visitor().catalogue.list({ search: "%" })).toEqual([]);
    });

    it("sorts by price both ways", async () => {
      const up = (await visitor().catalogue.list({ sort: "price-asc" })).map((p) => p.price);
      const down = (await visitor().catalogue.list({ sort: "price-desc" })).map((p) => p.price);
      expect(up).toEqual([...up].sort((a, b) => a - b));
      expect(down).toEqual([...up].reverse());
    });

    it("hides unavailable products", async () => {
      const [first] = await visitor().catalogue.list();
      await db.kysely.updateTable("products").set({ available: false }).where("id", "=", first!.id).execute();
      const after = await visitor().catalogue.list();
      expect(after.map((p) => p.id)).not.toContain(first!.id);
      await db.kysely.updateTable("products").set({ available: true }).where("id", "=", first!.id).execute();
    });

    it("pages through the catalogue without gaps or repeats, at most 100 per call", async () => {
      const all = await visitor().catalogue.list({ perPage: 100 });
      const pages = [];
      for (let page = 1; page <= Math.ceil(all.length / 7); page++) pages.push(...(await visitor().catalogue.list({ perPage: 7, page })));
      expect(pages.map((p) => p.id)).toEqual(all.map((p) => p.id));
      expect(await visitor().catalogue.list({ perPage: 7, page: 1000 })).toEqual([]);
      expect((await visitor().catalogue.list()).length).toBe(Math.min(all.length, PRODUCTS_PER_PAGE));
      for (const bad of [{ perPage: 101 }, { perPage: 0 }, { page: 0 }, { page: 1.5 }]) {
        await expect(visitor().catalogue.list(bad)).rejects.toMatchObject({ code: "BAD_REQUEST" });
      }
    });

    it("rejects over-long input with a validation error", async () => {
      await expect(visitor().catalogue.list({ search: "x".repeat(101) })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    });
  });

  describe("categories", () => {
    it("lists the distinct categories that have available products, for the tabs", async () => {
      const categories = await visitor().catalogue.categories();
      expect(categories).toEqual([
        "Cleaning & Laundry",
        "Embroidery & Branding",
        "Food Products",
        "Risk Consulting & Recruitment",
        "Supply & Corporate Stationery",
      ]);
    });

    it("leaves out a category with no available products", async () => {
      await db.kysely.insertInto("categories").values({ name: "Empty shelf" }).execute();
      expect(await visitor().catalogue.categories()).not.toContain("Empty shelf");
    });
  });

  describe("byId", () => {
    it("returns one product, with its options (none) and its one variant", async () => {
      const [first] = await visitor().catalogue.list();
      const product = await visitor().catalogue.byId({ id: first!.id });
      expect(product).toMatchObject(first!);
      expect(product.options).toEqual([]);
      expect(product.variants).toEqual([{ id: expect.any(String), optionValues: [], price: first!.price, available: true, stock: null, pictureUrl: null }]);
    });

    it("returns an unavailable product too, marked unavailable", async () => {
      const [first] = await visitor().catalogue.list();
      await db.kysely.updateTable("products").set({ available: false }).where("id", "=", first!.id).execute();
      expect(await visitor().catalogue.byId({ id: first!.id })).toMatchObject({ id: first!.id, available: false });
      await db.kysely.updateTable("products").set({ available: true }).where("id", "=", first!.id).execute();
    });

    it("answers 'Product not found.' for an unknown or malformed id", async () => {
      await notFound(visitor().catalogue.byId({ id: "00000000-0000-4000-8000-000000000000" }));
      await notFound(visitor().catalogue.byId({ id: "not-a-uuid" }));
      await notFound(visitor().catalogue.byId({ id: "'; drop table products; --" }));
    });
  });

  describe("related", () => {
    it("gives the first three other products", async () => {
      const all = await visitor().catalogue.list();
      const current = all[1]!;
      const related = await visitor().catalogue.related({ id: current.id });
      expect(related.map((p) => p.id)).toEqual(all.filter((p) => p.id !== current.id).slice(0, 3).map((p) => p.id));
    });
  });
});
