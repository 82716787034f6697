import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_PRODUCT_PICTURES } from "@/lib/constants";
import { ANON, runAs, type Tx } from "@/server/db/as-caller";
import { CATALOGUE_CHANNEL } from "@/server/db/channels";
import { attempt, errorMessage } from "../helpers/attempt";
import { createUser, freshDatabase, type TestDatabase, type TestUser } from "../helpers/database";

/**
 * A product's pictures (issue 37, item 4; 020_catalogue.sql): the functions that add, move,
 * choose the card picture and remove, and products.image_path kept as the card picture's path in
 * both directions, so every reader and writer of it works as before.
 */

let db: TestDatabase;
let admin: TestUser;
let customer: TestUser;
let categoryId: string;

beforeAll(async () => {
  db = await freshDatabase();
  admin = await createUser(db, { role: "admin" });
  customer = await createUser(db);
  categoryId = (await db.kysely.selectFrom("categories").select("id").limit(1).executeTakeFirstOrThrow()).id;
});

afterAll(async () => {
  await db?.close();
});

const asAdmin = <T>(work: (trx: Tx) => Promise<T>) => runAs(db.kysely, admin.identity, work);

async function newProduct(imagePath: string | null = "1_first.png") {
  return (
    await db.kysely
      .insertInto("products")
      .values({ name: "  Golf shirt ", price: "250.00", category_id: categoryId, image_path: imagePath })
      .returning("id")
      .executeTakeFirstOrThrow()
  ).id;
}

function pictures(productId: string) {
  return db.kysely
    .selectFrom("product_images")
    .select(["path", "alt", "position", "is_card"])
    .where("product_id", "=", productId)
    .orderBy("position")
    .execute();
}

async function imagePath(productId: string) {
  return (await db.kysely.selectFrom("products").select("image_path").where("id", "=", productId).executeTakeFirstOrThrow()).image_path;
}

const add = (productId: string, path: string, alt = "A picture") =>
  asAdmin(async (trx) => (await sql<{ id: string }>`select public.add_product_image(${productId}::uuid, ${path}, ${alt}) as id`.execute(trx)).rows[0]!.id);
const move = (id: string, up: boolean) =>
  asAdmin(async (trx) => (await sql<{ moved: boolean }>`select public.move_product_image(${id}::uuid, ${up}) as moved`.execute(trx)).rows[0]!.moved);
const makeCard = (id: string) => asAdmin((trx) => sql`select public.set_product_card_image(${id}::uuid)`.execute(trx));
const remove = (id: string) =>
  asAdmin(async (trx) => (await sql<{ path: string }>`select public.remove_product_image(${id}::uuid) as path`.execute(trx)).rows[0]!.path);

describe("product pictures", () => {
  it("every seeded product has its image as its one picture, the card's, named by the product", async () => {
    const products = await db.kysely.selectFrom("products").select(["id", "name", "image_path"]).execute();
    expect(products.length).toBeGreaterThan(0);
    for (const product of products) {
      expect(await pictures(product.id)).toEqual([{ path: product.image_path, alt: product.name.trim(), position: 1, is_card: true }]);
    }
  });

  it("a product made with an image has it as its first and card picture; one made without has none", async () => {
    const id = await newProduct("1_first.png");
    expect(await pictures(id)).toEqual([{ path: "1_first.png", alt: "Golf shirt", position: 1, is_card: true }]);
    expect(await pictures(await newProduct(null))).toEqual([]);
  });

  it("adds pictures at the end; the first one a product gets is its card picture", async () => {
    const id = await newProduct(null);
    await add(id, "2_front.png", "The front");
    await add(id, "3_back.png", "  The back ");
    expect(await pictures(id)).toEqual([
      { path: "2_front.png", alt: "The front", position: 1, is_card: true },
      { path: "3_back.png", alt: "The back", position: 2, is_card: false },
    ]);
    expect(await imagePath(id)).toBe("2_front.png");
  });

  it("moves a picture up and down, swapping places; at either end nothing moves", async () => {
    const id = await newProduct("1_a.png");
    const b = await add(id, "2_b.png");
    const c = await add(id, "3_c.png");
    expect(await move(c, true)).toBe(true);
    expect((await pictures(id)).map((p) => p.path)).toEqual(["1_a.png", "3_c.png", "2_b.png"]);
    expect(await move(c, true)).toBe(true);
    expect(await move(c, true)).toBe(false);
    expect(await move(b, false)).toBe(false);
    expect((await pictures(id)).map((p) => [p.path, p.position])).toEqual([["3_c.png", 1], ["1_a.png", 2], ["2_b.png", 3]]);
    // The card's picture is chosen, not the first: moving keeps it.
    expect(await imagePath(id)).toBe("1_a.png");
  });

  it("the card picture chosen is products.image_path, so cards, cart and orders show it", async () => {
    const id = await newProduct("1_a.png");
    const b = await add(id, "2_b.png");
    await makeCard(b);
    expect((await pictures(id)).map((p) => [p.path, p.is_card])).toEqual([["1_a.png", false], ["2_b.png", true]]);
    expect(await imagePath(id)).toBe("2_b.png");
  });

  it("a new image written to the product the old way replaces the card picture's file, keeping its place and alt text", async () => {
    const id = await newProduct("1_a.png");
    const b = await add(id, "2_b.png", "The back");
    await makeCard(b);
    await asAdmin((trx) => trx.updateTable("products").set({ image_path: "9_new.png" }).where("id", "=", id).execute());
    expect(await pictures(id)).toEqual([
      { path: "1_a.png", alt: "Golf shirt", position: 1, is_card: false },
      { path: "9_new.png", alt: "The back", position: 2, is_card: true },
    ]);
  });

  it("removes a picture, closing the gap; the card's goes to the first left; the last one stays", async () => {
    const id = await newProduct("1_a.png");
    const b = await add(id, "2_b.png");
    await add(id, "3_c.png");
    const first = (await db.kysely.selectFrom("product_images").select("id").where("path", "=", "1_a.png").where("product_id", "=", id).executeTakeFirstOrThrow()).id;
    expect(await remove(first)).toBe("1_a.png");
    expect(await pictures(id)).toEqual([
      { path: "2_b.png", alt: "A picture", position: 1, is_card: true },
      { path: "3_c.png", alt: "A picture", position: 2, is_card: false },
    ]);
    expect(await imagePath(id)).toBe("2_b.png");
    const c = (await db.kysely.selectFrom("product_images").select("id").where("path", "=", "3_c.png").where("product_id", "=", id).executeTakeFirstOrThrow()).id;
    await remove(c);
    await expect(remove(b)).rejects.toThrow("last_picture");
    expect(await pictures(id)).toHaveLength(1);
  });

  it(`takes at most ${MAX_PRODUCT_PICTURES} pictures a product (MAX_PRODUCT_PICTURES)`, async () => {
    const id = await newProduct("1_a.png");
    for (let i = 2; i <= MAX_PRODUCT_PICTURES; i++) await add(id, `${i}_more.png`);
    await expect(add(id, "99_one-too-many.png")).rejects.toThrow("too_many_pictures");
    expect(await pictures(id)).toHaveLength(MAX_PRODUCT_PICTURES);
  });

  it("refuses alt text that is empty or longer than 200 characters", async () => {
    const id = await newProduct("1_a.png");
    await expect(add(id, "2_b.png", "   ")).rejects.toThrow(/product_images_alt_check/);
    await expect(add(id, "2_b.png", "x".repeat(201))).rejects.toThrow(/product_images_alt_check/);
  });

  it("go with their product", async () => {
    const id = await newProduct("1_a.png");
    await add(id, "2_b.png");
    await asAdmin((trx) => trx.deleteFrom("products").where("id", "=", id).execute());
    expect(await pictures(id)).toEqual([]);
  });

  it("everyone reads them; only admins write them, directly or through the functions", async () => {
    const id = await newProduct("1_a.png");
    const picture = (await db.kysely.selectFrom("product_images").select("id").where("product_id", "=", id).executeTakeFirstOrThrow()).id;
    for (const identity of [ANON, customer.identity, admin.identity]) {
      const read = await attempt(db, identity, (t) => t.selectFrom("product_images").select("id").where("product_id", "=", id).execute());
      expect(read.value).toHaveLength(1);
    }
    for (const identity of [ANON, customer.identity]) {
      const writes: ((t: Tx) => Promise<unknown>)[] = [
        (t) => sql`select public.add_product_image(${id}::uuid, 'x.png', 'X')`.execute(t),
        (t) => sql`select public.move_product_image(${picture}::uuid, true)`.execute(t),
        (t) => sql`select public.set_product_card_image(${picture}::uuid)`.execute(t),
        (t) => sql`select public.remove_product_image(${picture}::uuid)`.execute(t),
        (t) => t.insertInto("product_images").values({ product_id: id, path: "x.png", alt: "X", position: 9 }).execute(),
      ];
      for (const write of writes) expect((await attempt(db, identity, write)).ok).toBe(false);
      const update = await attempt(db, identity, (t) => t.updateTable("product_images").set({ alt: "Changed" }).where("id", "=", picture).executeTakeFirst());
      expect(update.ok && update.value?.numUpdatedRows).toBeFalsy();
    }
    const altByAdmin = await attempt(db, admin.identity, (t) => t.updateTable("product_images").set({ alt: "Changed" }).where("id", "=", picture).executeTakeFirst());
    expect(altByAdmin.value?.numUpdatedRows).toBe(1n);
    const unknown = await attempt(db, admin.identity, (t) => sql`select public.move_product_image(gen_random_uuid(), true)`.execute(t));
    expect(errorMessage(unknown.error)).toMatch("picture_not_found");
  });

  it("announces every change on the catalogue channel, so each server process drops its cached pages", async () => {
    const id = await newProduct("1_a.png");
    const heard: string[] = [];
    const stop = await db.listen(CATALOGUE_CHANNEL, (payload) => heard.push(payload));
    try {
      await add(id, "2_b.png");
      await expect.poll(() => heard).toContain("product_images");
    } finally {
      await stop();
    }
  });
});
