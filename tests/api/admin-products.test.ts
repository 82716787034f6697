import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { messages } from "@/lib/messages";
import { callerAs, type Caller } from "../helpers/browser";
import { createUser, freshDatabase, type TestDatabase, type TestUser } from "../helpers/database";
import { fileOf, makePng } from "../helpers/images";
import { placeTestOrder } from "../helpers/orders";

const m = messages.admin;
let db: TestDatabase;
let admin: Caller;
let customer: TestUser;
let categoryId: string;

beforeAll(async () => {
  db = await freshDatabase();
  admin = await callerAs(db, await createUser(db, { role: "admin" }));
  customer = await createUser(db);
  categoryId = (await admin.adminProducts.categories())[0]!.id;
});

afterAll(async () => {
  await db?.close();
});

function productForm(fields: Partial<Record<"name" | "description" | "price" | "categoryId", string>> & { image?: File | null } = {}) {
  const form = new FormData();
  form.set("name", fields.name ?? "Koeksister Tray");
  form.set("description", fields.description ?? "Twelve syrupy koeksisters.");
  form.set("price", fields.price ?? "85.50");
  form.set("categoryId", fields.categoryId ?? categoryId);
  if (fields.image !== null) form.set("image", fields.image ?? fileOf(makePng(40, 30), "koeksisters.png"));
  return form;
}

async function outcome(promise: Promise<unknown>) {
  return promise.then(
    () => "OK",
    (error: { code: string; message: string }) => `${error.code}: ${error.message}`,
  );
}

describe("adminProducts", () => {
  it("every procedure: admin allowed, customer FORBIDDEN, visitor UNAUTHORIZED", async () => {
    const asCustomer = await callerAs(db, customer);
    const asVisitor = await callerAs(db, null);
    for (const caller of [asCustomer, asVisitor]) {
      const expected = caller === asCustomer ? /^FORBIDDEN/ : /^UNAUTHORIZED/;
      expect(await outcome(caller.adminProducts.list())).toMatch(expected);
      expect(await outcome(caller.adminProducts.categories())).toMatch(expected);
      expect(await outcome(caller.adminProducts.addCategory({ name: "Sneaky" }))).toMatch(expected);
      expect(await outcome(caller.adminProducts.create(productForm()))).toMatch(expected);
      expect(await outcome(caller.adminProducts.setAvailability({ id: categoryId, available: false }))).toMatch(expected);
      expect(await outcome(caller.adminProducts.delete({ id: categoryId }))).toMatch(expected);
    }
  });

  it("adds a product with a checked image, and it shows in the shop", async () => {
    const { id, message } = await admin.adminProducts.create(productForm());
    expect(message).toBe(m.productAdded("Koeksister Tray"));
    const shop = await (await callerAs(db, null)).catalogue.list();
    const added = shop.find((p) => p.id === id)!;
    expect(added).toMatchObject({ name: "Koeksister Tray", price: 85.5 });
    expect(added.imageUrl).toMatch(/^\/files\/products-services\/\d+_koeksisters\.png$/);
  });

  it("requires name, price, image and category, and refuses a bad price or image", async () => {
    expect(await outcome(admin.adminProducts.create(productForm({ name: " " })))).toBe(`BAD_REQUEST: ${m.productRequired}`);
    expect(await outcome(admin.adminProducts.create(productForm({ image: null })))).toBe(`BAD_REQUEST: ${m.productRequired}`);
    expect(await outcome(admin.adminProducts.create(productForm({ price: "-5" })))).toBe(`BAD_REQUEST: ${m.priceInvalid}`);
    expect(await outcome(admin.adminProducts.create(productForm({ price: "abc" })))).toBe(`BAD_REQUEST: ${m.priceInvalid}`);
    expect(await outcome(admin.adminProducts.create(productForm({ image: fileOf("not an image", "x.png") })))).toMatch(/^BAD_REQUEST: Only JPEG/);
  });

  it("adds a category once; a duplicate name gets a clear message", async () => {
    expect((await admin.adminProducts.addCategory({ name: "Gardening" })).message).toBe(m.categoryAdded("Gardening"));
    expect(await outcome(admin.adminProducts.addCategory({ name: "gardening" }))).toBe(`CONFLICT: ${m.categoryExists("gardening")}`);
    expect(await outcome(admin.adminProducts.addCategory({ name: "   " }))).toMatch(/^BAD_REQUEST/);
  });

  it("an unavailable product leaves the shop and cannot be ordered", async () => {
    const { id } = await admin.adminProducts.create(productForm({ name: "Seasonal Soup" }));
    await admin.adminProducts.setAvailability({ id, available: false });
    expect((await (await callerAs(db, null)).catalogue.list()).map((p) => p.id)).not.toContain(id);
    expect(await outcome((await callerAs(db, customer)).cart.add({ productId: id }))).toBe(`BAD_REQUEST: ${messages.cart.unavailable}`);
    await admin.adminProducts.setAvailability({ id, available: true });
    expect((await (await callerAs(db, null)).catalogue.list()).map((p) => p.id)).toContain(id);
  });

  it("deleting a product leaves past orders intact", async () => {
    const { id } = await admin.adminProducts.create(productForm({ name: "Old Favourite", price: "42.00" }));
    const order = await placeTestOrder(db, customer, [id]);
    expect((await admin.adminProducts.delete({ id })).message).toBe(m.productDeleted("Old Favourite"));
    const lines = await db.kysely.selectFrom("order_items").selectAll().where("order_id", "=", order.id).execute();
    expect(lines).toMatchObject([{ product_id: null, product_name: "Old Favourite", unit_price: "42.00", quantity: 1 }]);
    expect(await outcome(admin.adminProducts.delete({ id }))).toBe(`NOT_FOUND: ${messages.catalogue.productNotFound}`);
  });

  it("edits a product's name, description, price, category and image; the old image goes", async () => {
    const { id } = await admin.adminProducts.create(productForm({ name: "Draft Pie", price: "20.00" }));
    const [other] = (await admin.adminProducts.categories()).filter((c) => c.id !== categoryId);
    const before = (await admin.adminProducts.list()).find((p) => p.id === id)!;
    const form = productForm({ name: "Chicken Pie", description: "Creamy chicken and mushroom.", price: "32.50", categoryId: other!.id, image: fileOf(makePng(20, 20), "chicken.png") });
    form.set("id", id);
    expect((await admin.adminProducts.update(form)).message).toBe(m.productUpdated("Chicken Pie"));
    const after = (await (await callerAs(db, null)).catalogue.list()).find((p) => p.id === id)!;
    expect(after).toMatchObject({ name: "Chicken Pie", description: "Creamy chicken and mushroom.", price: 32.5, category: other!.name });
    expect(after.imageUrl).toMatch(/_chicken\.png$/);
    const oldPath = decodeURIComponent(before.imageUrl!.replace("/files/products-services/", ""));
    expect(await db.kysely.selectFrom("storage.objects").select("name").where("name", "=", oldPath).execute()).toEqual([]);

    const keepImage = productForm({ name: "Chicken Pie", price: "33.00", image: null });
    keepImage.set("id", id);
    await admin.adminProducts.update(keepImage);
    expect((await (await callerAs(db, null)).catalogue.list()).find((p) => p.id === id)!.imageUrl).toBe(after.imageUrl);
    expect(await outcome((await callerAs(db, customer)).adminProducts.update(keepImage))).toMatch(/^FORBIDDEN/);
  });
});
