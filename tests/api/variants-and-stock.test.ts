import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { STOCK_FEW_LEFT } from "@/lib/constants";
import { messages } from "@/lib/messages";
import { runAs } from "@/server/db/as-caller";
import { trpcRefusal } from "../helpers/attempt";
import { callerAs, type Caller } from "../helpers/browser";
import { createUser, freshDatabase, type TestDatabase, type TestUser } from "../helpers/database";
import { fileOf, makePng } from "../helpers/images";
import { callPlaceOrder, openReference, storeProof } from "../helpers/orders";

/**
 * Products with options and variants, and counted stock (issue 37; docs/architecture.md#products-variants-and-stock):
 * through the procedures customers and admins call, with the database's own checks underneath.
 */
let db: TestDatabase;
let admin: Caller;
let categoryId: string;

beforeAll(async () => {
  db = await freshDatabase();
  admin = await callerAs(db, await createUser(db, { role: "admin" }));
  categoryId = (await db.kysely.selectFrom("categories").select("id").limit(1).executeTakeFirstOrThrow()).id;
});

afterAll(async () => {
  await db?.close();
});

async function newProduct(name: string, price = "250.00") {
  const row = await db.kysely.insertInto("products").values({ name, price, category_id: categoryId, image_path: "/products/shirt.webp" }).returning("id").executeTakeFirstOrThrow();
  return row.id;
}

async function variantsOf(productId: string) {
  return db.kysely.selectFrom("product_variants").selectAll().where("product_id", "=", productId).orderBy("position").execute();
}

async function variantOf(productId: string, ...optionValues: string[]) {
  const variants = await variantsOf(productId);
  return variants.find((variant) => variant.option_values.join("/") === optionValues.join("/"))!;
}

/** Fills `user`'s cart with `quantity` of a variant and places the order with their reference, as `user`, in SQL. */
async function buy(user: TestUser, variantId: string, quantity = 1) {
  return runAs(db.kysely, user.identity, async (trx) => {
    for (let i = 0; i < quantity; i++) await sql`select public.add_variant_to_cart(${variantId}::uuid)`.execute(trx);
  }).then(() =>
    runAs(db.kysely, user.identity, async (trx) => {
      const reference = (await openReference(trx))!;
      const proofPath = await storeProof(trx, user);
      return callPlaceOrder(trx, { idempotencyKey: randomUUID(), reference, proofPath });
    }),
  );
}

function placeOrderForm(reference: string) {
  const data = new FormData();
  data.set("proof", fileOf(makePng(), "proof.png"));
  data.set("reference", reference);
  data.set("idempotencyKey", randomUUID());
  return data;
}

describe("a product without options", () => {
  it("is one variant, with no options, at the product's price (existing products too)", async () => {
    const id = await newProduct("Chicken pie", "36.00");
    const variants = await variantsOf(id);
    expect(variants).toHaveLength(1);
    expect(variants[0]).toMatchObject({ option_values: [], price: null, stock: null, available: true });
    const product = await (await callerAs(db, null)).catalogue.byId({ id });
    expect(product).toMatchObject({ hasOptions: false, price: 36, priceFrom: 36, priceTo: 36, stock: null, options: [] });
    expect(product.variants).toEqual([{ id: variants[0]!.id, optionValues: [], price: 36, available: true, stock: null, pictureUrl: null }]);
    const orphans = await sql<{ n: number }>`select count(*)::int as n from public.products p where not exists (select 1 from public.product_variants v where v.product_id = p.id)`.execute(db.kysely);
    expect(orphans.rows[0]!.n).toBe(0);
  });
});

describe("options and variants", () => {
  it("makes every combination a variant, keeps what a kept combination had, and drops the rest", async () => {
    const id = await newProduct("Golf shirt");
    expect(await admin.adminProducts.saveOptions({ productId: id, options: [{ name: "Size", choices: ["S", "M", "L"] }, { name: "Colour", choices: ["Navy", "White"] }] })).toEqual({
      message: messages.admin.variants.optionsSaved("Golf shirt", 6),
    });
    expect((await variantsOf(id)).map((variant) => variant.option_values.join(" / "))).toEqual(["S / Navy", "S / White", "M / Navy", "M / White", "L / Navy", "L / White"]);
    const largeNavy = await variantOf(id, "L", "Navy");
    await admin.adminProducts.saveVariants({ productId: id, variants: [{ id: largeNavy.id, sku: "GS-L-NVY", price: "275.00", available: true, stock: 4, stockWas: null, lowStockAt: 1, pictureId: null }] });

    await admin.adminProducts.saveOptions({ productId: id, options: [{ name: "Size", choices: ["M", "L", "XL"] }, { name: "Colour", choices: ["Navy", "White"] }] });
    const after = await variantsOf(id);
    expect(after.map((variant) => variant.option_values.join(" / "))).toEqual(["M / Navy", "M / White", "L / Navy", "L / White", "XL / Navy", "XL / White"]);
    expect(after.find((variant) => variant.id === largeNavy.id)).toMatchObject({ sku: "GS-L-NVY", price: "275.00", stock: 4, low_stock_at: 1 });

    const product = await (await callerAs(db, null)).catalogue.byId({ id });
    expect(product.options).toEqual([
      { name: "Size", choices: ["M", "L", "XL"] },
      { name: "Colour", choices: ["Navy", "White"] },
    ]);
    expect(product).toMatchObject({ hasOptions: true, priceFrom: 250, priceTo: 275 });
  });

  it("refuses bad options with a clear message and changes nothing", async () => {
    const id = await newProduct("Party pack");
    const before = await variantsOf(id);
    const cases: [unknown, string][] = [
      [[{ name: "", choices: ["10"] }], messages.admin.variants.optionNameRequired],
      [[{ name: "Size", choices: [] }], messages.admin.variants.choicesRequired],
      [[{ name: "Size", choices: ["S", "s"] }], messages.admin.variants.choicesDistinct],
      [[{ name: "Size", choices: ["S"] }, { name: "size", choices: ["M"] }], messages.admin.variants.optionNamesDistinct],
      [[1, 2, 3, 4].map((n) => ({ name: `O${n}`, choices: ["a"] })), messages.admin.variants.tooManyOptions],
      [[{ name: "A", choices: Array.from({ length: 11 }, (_, i) => `a${i}`) }, { name: "B", choices: Array.from({ length: 10 }, (_, i) => `b${i}`) }], messages.admin.variants.tooManyVariants],
    ];
    for (const [options, message] of cases) {
      const error = await trpcRefusal(admin.adminProducts.saveOptions({ productId: id, options: options as never }));
      expect(error.message).toContain(message);
    }
    expect(await variantsOf(id)).toEqual(before);
  });

  it("is for admins only: customers and visitors cannot set options, prices or stock, even in SQL", async () => {
    const id = await newProduct("Letterheads");
    const customer = await createUser(db);
    const asCustomer = await callerAs(db, customer);
    expect((await trpcRefusal(asCustomer.adminProducts.saveOptions({ productId: id, options: [] }))).code).toBe("FORBIDDEN");
    const [variant] = await variantsOf(id);
    expect((await trpcRefusal(asCustomer.adminProducts.saveVariants({ productId: id, variants: [{ id: variant!.id, sku: null, price: "1.00", available: true, stock: null, stockWas: null, lowStockAt: null, pictureId: null }] }))).code).toBe("FORBIDDEN");
    const changed = await runAs(db.kysely, customer.identity, (trx) => trx.updateTable("product_variants").set({ price: "1.00", stock: 0 }).where("id", "=", variant!.id).executeTakeFirst());
    expect(changed.numUpdatedRows).toBe(0n);
    await expect(runAs(db.kysely, customer.identity, (trx) => sql`select public.save_product_options(${id}::uuid, '[]'::jsonb)`.execute(trx))).rejects.toThrow(/admins_only/);
    await expect(runAs(db.kysely, customer.identity, (trx) => trx.insertInto("product_variants").values({ product_id: id, option_values: ["x"] }).execute())).rejects.toThrow();
    expect(await variantsOf(id)).toEqual([variant]);
  });
});

describe("carts and orders name the variant", () => {
  it("adds the chosen variant, one line per variant, and needs a choice on a product with options", async () => {
    const id = await newProduct("Embroidered golf shirt");
    await admin.adminProducts.saveOptions({ productId: id, options: [{ name: "Size", choices: ["M", "L"] }, { name: "Colour", choices: ["Navy"] }] });
    const largeNavy = await variantOf(id, "L", "Navy");
    const medium = await variantOf(id, "M", "Navy");
    const customer = await callerAs(db, await createUser(db));

    const refused = await trpcRefusal(customer.cart.add({ productId: id }));
    expect({ code: refused.code, message: refused.message }).toEqual({ code: "BAD_REQUEST", message: messages.cart.variantRequired });
    expect(await customer.cart.add({ productId: id, variantId: largeNavy.id })).toEqual({ quantity: 1, message: messages.cart.added("Embroidered golf shirt — L / Navy") });
    await customer.cart.add({ productId: id, variantId: largeNavy.id });
    await customer.cart.add({ productId: id, variantId: medium.id });
    const cart = await customer.cart.list();
    expect(cart.lines.map((line) => [line.name, line.quantity, line.variantId])).toEqual([
      ["Embroidered golf shirt — L / Navy", 2, largeNavy.id],
      ["Embroidered golf shirt — M / Navy", 1, medium.id],
    ]);

    // Another product's variant: refused, and nothing kept.
    const other = (await variantsOf(await newProduct("Stapler")))[0]!;
    expect((await trpcRefusal(customer.cart.add({ productId: id, variantId: other.id }))).code).toBe("NOT_FOUND");
    expect((await customer.cart.list()).lines).toHaveLength(2);
  });

  it("freezes the name, choices, SKU and price on the order when the product changes later", async () => {
    const id = await newProduct("Branded cap", "120.00");
    await admin.adminProducts.saveOptions({ productId: id, options: [{ name: "Colour", choices: ["Red", "Black"] }] });
    const red = await variantOf(id, "Red");
    await admin.adminProducts.saveVariants({ productId: id, variants: [{ id: red.id, sku: "CAP-RED", price: "135.50", available: true, stock: null, stockWas: null, lowStockAt: null, pictureId: null }] });
    const order = await buy(await createUser(db), red.id, 2);
    expect(order.total).toBe("271.00");

    await admin.adminProducts.saveVariants({ productId: id, variants: [{ id: red.id, sku: "CAP-R", price: "150.00", available: true, stock: null, stockWas: null, lowStockAt: null, pictureId: null }] });
    await db.kysely.updateTable("products").set({ name: "Cap" }).where("id", "=", id).execute();
    await admin.adminProducts.saveOptions({ productId: id, options: [{ name: "Colour", choices: ["Black"] }] });

    const lines = await db.kysely.selectFrom("order_items").select(["product_name", "option_values", "sku", "unit_price", "quantity", "variant_id"]).where("order_id", "=", order.id).execute();
    expect(lines).toEqual([{ product_name: "Branded cap — Red", option_values: ["Red"], sku: "CAP-RED", unit_price: "135.50", quantity: 2, variant_id: null }]);
  });
});

describe("counted stock", () => {
  async function countedProduct(name: string, stock: number) {
    const id = await newProduct(name, "45.00");
    const [variant] = await variantsOf(id);
    await admin.adminProducts.saveVariants({ productId: id, variants: [{ id: variant!.id, sku: null, price: null, available: true, stock, stockWas: null, lowStockAt: null, pictureId: null }] });
    return { id, variantId: variant!.id };
  }

  async function stockOf(variantId: string) {
    return (await db.kysely.selectFrom("product_variants").select("stock").where("id", "=", variantId).executeTakeFirstOrThrow()).stock;
  }

  it("50 buyers at once for the last 10 units: exactly 10 sold, stock 0, the others refused with their carts kept", async () => {
    const { variantId } = await countedProduct("Party pack (10)", 10);
    const buyers = await Promise.all(Array.from({ length: 50 }, () => createUser(db)));
    const outcomes = await Promise.allSettled(buyers.map((user) => buy(user, variantId)));
    const sold = outcomes.filter((outcome) => outcome.status === "fulfilled");
    const refused = outcomes.filter((outcome): outcome is PromiseRejectedResult => outcome.status === "rejected");
    expect(sold).toHaveLength(10);
    expect(refused.every((outcome) => /not_enough_stock/.test(String(outcome.reason)))).toBe(true);
    expect(await stockOf(variantId)).toBe(0);
    const lines = await db.kysely.selectFrom("order_items").select((eb) => eb.fn.sum<string>("quantity").as("n")).where("variant_id", "=", variantId).executeTakeFirstOrThrow();
    expect(Number(lines.n)).toBe(10);
    const carts = await db.kysely.selectFrom("cart_items").select("user_id").where("variant_id", "=", variantId).execute();
    expect(carts).toHaveLength(40);
  });

  it("refuses a checkout for more than is left, naming the line and what is left, and changes nothing", async () => {
    const { id, variantId } = await countedProduct("A4 paper box", 3);
    const customer = await createUser(db);
    const caller = await callerAs(db, customer);
    for (let i = 0; i < 3; i++) await caller.cart.add({ productId: id });
    // A fourth is not there to add.
    const more = await trpcRefusal(caller.cart.add({ productId: id }));
    expect({ code: more.code, message: more.message }).toEqual({ code: "CONFLICT", message: messages.cart.notEnoughStock });
    const [line] = (await caller.cart.list()).lines;
    expect((await trpcRefusal(caller.cart.increase({ lineId: line!.id }))).message).toBe(messages.cart.notEnoughStock);

    // Someone else buys two meanwhile.
    await buy(await createUser(db), variantId, 2);
    const { reference } = await caller.checkout.start();
    const error = await trpcRefusal(caller.checkout.placeOrder(placeOrderForm(reference!)));
    expect({ code: error.code, message: error.message }).toEqual({ code: "CONFLICT", message: messages.checkout.notEnoughStock("A4 paper box", 1) });
    expect(await stockOf(variantId)).toBe(1);
    expect((await caller.cart.list()).lines.map((l) => l.quantity)).toEqual([3]);
    expect(await db.kysely.selectFrom("orders").select("id").where("user_id", "=", customer.id).execute()).toEqual([]);
    expect(messages.checkout.notEnoughStock("A4 paper box", 0)).toBe("A4 paper box is sold out. Please remove it from your cart and try again.");
  });

  it("gives the units back when the order is cancelled, and takes them again if it is reopened while they are there", async () => {
    const { variantId } = await countedProduct("Toner", 5);
    const order = await buy(await createUser(db), variantId, 2);
    expect(await stockOf(variantId)).toBe(3);
    await admin.adminOrders.updateStatus({ id: order.id, status: "cancelled" });
    expect(await stockOf(variantId)).toBe(5);
    await admin.adminOrders.updateStatus({ id: order.id, status: "pending_payment" });
    expect(await stockOf(variantId)).toBe(3);
    await admin.adminOrders.updateStatus({ id: order.id, status: "cancelled" });
    await buy(await createUser(db), variantId, 4);
    expect(await stockOf(variantId)).toBe(1);
    // Only one left: reopening the order for two would oversell, so it is refused and stays cancelled.
    const refused = await trpcRefusal(admin.adminOrders.updateStatus({ id: order.id, status: "pending_payment" }));
    expect({ code: refused.code, message: refused.message }).toEqual({ code: "CONFLICT", message: messages.adminOrders.reopenOutOfStock });
    expect((await db.kysely.selectFrom("orders").select("status").where("id", "=", order.id).executeTakeFirstOrThrow()).status).toBe("cancelled");
    expect(await stockOf(variantId)).toBe(1);
  });

  it("counts a variant's stock over all of a customer's lines of it, one per personalisation", async () => {
    const { id } = await countedProduct("Name badge", 3);
    await admin.adminProducts.savePersonalisation({ productId: id, fields: [{ label: "Name", kind: "text", required: true, maxLength: 20, price: null }] });
    const [field] = (await admin.adminProducts.variants({ id })).personalisation;
    const caller = await callerAs(db, await createUser(db));
    // A product without options takes its personalisation without a variant named (add_to_cart).
    await caller.cart.add({ productId: id, personalisation: { [field!.id]: "Thandi" } });
    await caller.cart.add({ productId: id, personalisation: { [field!.id]: "Thandi" } });
    await caller.cart.add({ productId: id, personalisation: { [field!.id]: "Pieter" } });
    const lines = (await caller.cart.list()).lines;
    expect(lines.map((line) => line.quantity).sort()).toEqual([1, 2]);
    // Three in the cart, three in stock: neither line can take one more.
    for (const line of lines) {
      const refused = await trpcRefusal(caller.cart.increase({ lineId: line.id }));
      expect({ code: refused.code, message: refused.message }).toEqual({ code: "CONFLICT", message: messages.cart.notEnoughStock });
    }
    expect((await caller.cart.list()).lines.map((line) => line.quantity).sort()).toEqual([1, 2]);
  });

  it("never overwrites units an order took while the admin had the grid open: a changed stock is refused, an untouched one kept", async () => {
    const { id, variantId } = await countedProduct("Staplers", 5);
    await buy(await createUser(db), variantId, 2);
    // The grid was read at 5; the admin types 10.
    const refused = await trpcRefusal(admin.adminProducts.saveVariants({ productId: id, variants: [{ id: variantId, sku: "STP-1", price: null, available: true, stock: 10, stockWas: 5, lowStockAt: null, pictureId: null }] }));
    expect({ code: refused.code, message: refused.message }).toEqual({ code: "CONFLICT", message: messages.admin.variants.stockChanged("Staplers", 3) });
    expect(await db.kysely.selectFrom("product_variants").select(["stock", "sku"]).where("id", "=", variantId).executeTakeFirstOrThrow()).toEqual({ stock: 3, sku: null });
    // The stock left as read, another column changed: saved, and the 3 left stay 3.
    await admin.adminProducts.saveVariants({ productId: id, variants: [{ id: variantId, sku: "STP-1", price: null, available: true, stock: 5, stockWas: 5, lowStockAt: null, pictureId: null }] });
    expect(await db.kysely.selectFrom("product_variants").select(["stock", "sku"]).where("id", "=", variantId).executeTakeFirstOrThrow()).toEqual({ stock: 3, sku: "STP-1" });
    // Read again (3), it can be set.
    await admin.adminProducts.saveVariants({ productId: id, variants: [{ id: variantId, sku: "STP-1", price: null, available: true, stock: 10, stockWas: 3, lowStockAt: null, pictureId: null }] });
    expect(await stockOf(variantId)).toBe(10);
  });

  it("shows the product's stock to shoppers: counted, summed over its variants, or null when not counted", async () => {
    const { id } = await countedProduct("Pens", 2);
    const visitor = await callerAs(db, null);
    expect((await visitor.catalogue.byId({ id })).stock).toBe(2);
    expect((await visitor.catalogue.byId({ id })).variants[0]!.stock).toBe(2);
  });

  it("drops the shop's cached pages when a count a shopper sees changes (STOCK_FEW_LEFT)", async () => {
    const { rows } = await sql<{ definition: string }>`
      select pg_get_triggerdef(t.oid) as definition from pg_trigger t
      where t.tgrelid = 'public.product_variants'::regclass and t.tgname = 'product_variants_stock_shown'`.execute(db.kysely);
    expect(rows[0]?.definition).toContain(`<= ${STOCK_FEW_LEFT}`);
  });
});

describe("a variant's own picture", () => {
  it("is one of its product's pictures, follows a replaced file, and goes back to the product's when the picture is removed", async () => {
    const id = await newProduct("Two-tone cap");
    await admin.adminProducts.saveOptions({ productId: id, options: [{ name: "Colour", choices: ["Red", "Black"] }] });
    const red = await variantOf(id, "Red");
    const redPicture = await db.kysely.insertInto("product_images").values({ product_id: id, path: "products/cap-red.webp", alt: "The red cap", position: 2 }).returning("id").executeTakeFirstOrThrow();
    const other = await db.kysely.insertInto("product_images").values({ product_id: await newProduct("Other cap"), path: "products/other.webp", alt: "Another", position: 2 }).returning("id").executeTakeFirstOrThrow();
    const save = (pictureId: string | null) => admin.adminProducts.saveVariants({ productId: id, variants: [{ id: red.id, sku: null, price: null, available: true, stock: null, stockWas: null, lowStockAt: null, pictureId }] });

    await save(redPicture.id);
    const visitor = await callerAs(db, null);
    const shown = await visitor.catalogue.byId({ id });
    expect(shown.variants.map((variant) => [variant.optionValues[0], variant.pictureUrl])).toEqual([
      ["Red", expect.stringContaining("products/cap-red.webp")],
      ["Black", null],
    ]);
    expect((await admin.adminProducts.variants({ id })).variants.find((variant) => variant.id === red.id)!.pictureId).toBe(redPicture.id);

    // Another product's picture: refused, nothing changed; in SQL too.
    expect((await trpcRefusal(save(other.id))).message).toBe(messages.admin.variants.pictureUnknown);
    await expect(db.kysely.updateTable("product_variants").set({ image_path: "products/other.webp" }).where("id", "=", red.id).execute()).rejects.toThrow(/variant_picture_unknown/);
    expect((await variantOf(id, "Red")).image_path).toBe("products/cap-red.webp");

    // A new file for the picture: the variant shows it. The picture removed: the product's again.
    await db.kysely.updateTable("product_images").set({ path: "products/cap-red-2.webp" }).where("id", "=", redPicture.id).execute();
    expect((await variantOf(id, "Red")).image_path).toBe("products/cap-red-2.webp");
    await admin.adminProducts.removePicture({ id: redPicture.id });
    expect((await variantOf(id, "Red")).image_path).toBeNull();
  });
});

describe("the variants grid's rules (shared by the form and the procedure)", () => {
  it("says what a stock must be, for text, fractions and negatives alike", async () => {
    const { saveVariantsInput } = await import("@/server/products/schemas");
    for (const stock of [Number("abc"), 2.5, -1, 1_000_001]) {
      const parsed = saveVariantsInput.safeParse({ productId: randomUUID(), variants: [{ id: randomUUID(), sku: "", price: "", available: true, stock, stockWas: null, lowStockAt: null, pictureId: null }] });
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues[0]?.message).toBe(messages.admin.variants.stockInvalid);
    }
  });
});

describe("what a form parses, its procedure takes again (tRPC checks the form's output once more)", () => {
  it("holds for the variants grid, the options and the personalisation fields", async () => {
    const { saveOptionsInput, savePersonalisationInput, saveVariantsInput } = await import("@/server/products/schemas");
    const productId = randomUUID();
    const cases: [{ parse: (value: unknown) => unknown }, unknown][] = [
      [saveVariantsInput, { productId, variants: [{ id: randomUUID(), sku: "", price: "", available: true, stock: null, stockWas: null, lowStockAt: null, pictureId: null }] }],
      [saveOptionsInput, { productId, options: [{ name: " Size ", choices: [" S", "M "] }] }],
      [savePersonalisationInput, { productId, fields: [{ label: "Logo", kind: "file", required: false, maxLength: null, price: "" }, { label: "Name", kind: "text", required: true, maxLength: 12, price: "25" }] }],
    ];
    for (const [schema, value] of cases) {
      const once = schema.parse(value);
      expect(schema.parse(once)).toEqual(once);
    }
  });
});
