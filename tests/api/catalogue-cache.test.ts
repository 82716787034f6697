import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CACHED_PAGES, catalogueFor, type Catalogue } from "@/server/catalogue/catalogue";
import { listProducts } from "@/server/catalogue/catalogue-queries";
import { ANON, runAs } from "@/server/db/as-caller";
import { localFileUrl } from "@/server/ports/storage";
import { freshDatabase, type TestDatabase } from "../helpers/database";

/**
 * The one catalogue read path: which reads it keeps (only a bounded set, so invented URLs cannot
 * fill it), and that every catalogue change drops them, whoever makes it. A kept read answers
 * with the very same object again; a read from the database answers with a new one.
 */
let db: TestDatabase;
let catalogue: Catalogue;

beforeAll(async () => {
  db = await freshDatabase();
  catalogue = await catalogueFor(db, localFileUrl);
});

afterAll(async () => {
  await db?.close();
});

async function eventually(check: () => Promise<boolean>, ms = 3000) {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error("not within time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("the catalogue cache", () => {
  it("keeps the listing's first pages, per category", async () => {
    const all = await catalogue.list({});
    expect(await catalogue.list({})).toBe(all);
    const food = await catalogue.list({ category: "Food Products", page: CACHED_PAGES });
    expect(await catalogue.list({ category: "Food Products", page: CACHED_PAGES })).toBe(food);
    expect(all).toEqual(await runAs(db.kysely, ANON, (trx) => listProducts(trx, localFileUrl, {})));
  });

  it("reads searches, deeper or longer pages and unknown categories from the database each time", async () => {
    for (const input of [{ search: "pies" }, { page: CACHED_PAGES + 1 }, { category: `Nothing ${randomUUID()}` }, { perPage: 100 }]) {
      const first = await catalogue.list(input);
      expect(await catalogue.list(input)).not.toBe(first);
      expect(await catalogue.list(input)).toEqual(first);
    }
    expect((await catalogue.list({ search: "pies" })).map((p) => p.name)).toContain("Steak & Kidney Pies (6-pack)");
  });

  it("keeps known products under one key whatever the id's case, and never caches unknown ids", async () => {
    const [first] = await catalogue.list({});
    const product = await catalogue.product(first!.id.toUpperCase());
    expect(product?.id).toBe(first!.id);
    expect(await catalogue.product(first!.id)).toBe(product);
    expect(await catalogue.product(randomUUID())).toBeUndefined();
    expect(await catalogue.product("not-a-product")).toBeUndefined();
    const unknown = randomUUID();
    const related = await catalogue.related(unknown);
    expect(related).toHaveLength(3);
    expect(await catalogue.related(unknown)).not.toBe(related);
  });

  it("drops everything when the catalogue changes, even through another connection (NOTIFY)", async () => {
    const before = await catalogue.list({});
    const [first] = before;
    // A change the catalogue is not told of directly: only the trigger's notification reaches it.
    await db.kysely.updateTable("products").set({ available: false }).where("id", "=", first!.id).execute();
    await eventually(async () => !(await catalogue.list({})).some((p) => p.id === first!.id));
    expect((await catalogue.product(first!.id))?.available).toBe(false);
    await db.kysely.updateTable("products").set({ available: true }).where("id", "=", first!.id).execute();
    await eventually(async () => (await catalogue.list({})).some((p) => p.id === first!.id));
  });

  it("drops everything at once when told by the process that changed it", async () => {
    const before = await catalogue.list({});
    catalogue.changed();
    const after = await catalogue.list({});
    expect(after).not.toBe(before);
    expect(after).toEqual(before);
  });
});
