import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { messages } from "@/lib/messages";
import { runAs } from "@/server/db/as-caller";
import { mayHear } from "@/server/platform/adapters/local/local-live";
import { trpcRefusal } from "../helpers/attempt";
import { callerAs, type Caller } from "../helpers/browser";
import { createUser, freshDatabase, type TestDatabase, type TestUser } from "../helpers/database";
import { callPlaceOrder, openReference, storeProof } from "../helpers/orders";

/**
 * Stock notices (issue 37, item 3; docs/architecture.md#products-variants-and-stock): admins are told once per crossing of a
 * variant's low-stock mark, and a customer who asked is mailed once when a sold-out variant is back.
 */
let db: TestDatabase;
let admin: Caller;
let adminUser: TestUser;
let categoryId: string;

beforeAll(async () => {
  db = await freshDatabase();
  adminUser = await createUser(db, { role: "admin" });
  admin = await callerAs(db, adminUser);
  categoryId = (await db.kysely.selectFrom("categories").select("id").limit(1).executeTakeFirstOrThrow()).id;
});

afterAll(async () => {
  await db?.close();
});

/** A product without options whose one variant counts `stock`, told at `lowStockAt`. */
async function countedProduct(name: string, stock: number, lowStockAt: number | null = null) {
  const { id } = await db.kysely.insertInto("products").values({ name, price: "45.00", category_id: categoryId, image_path: "/products/shirt.webp" }).returning("id").executeTakeFirstOrThrow();
  const variant = await db.kysely.selectFrom("product_variants").select("id").where("product_id", "=", id).executeTakeFirstOrThrow();
  await setStock(id, variant.id, stock, lowStockAt);
  return { id, variantId: variant.id };
}

/** The admin's "Save variants" for a product's one variant. */
async function setStock(productId: string, variantId: string, stock: number, lowStockAt: number | null) {
  const { stock: stockWas } = await db.kysely.selectFrom("product_variants").select("stock").where("id", "=", variantId).executeTakeFirstOrThrow();
  return admin.adminProducts.saveVariants({ productId, variants: [{ id: variantId, sku: null, price: null, available: true, stock, stockWas, lowStockAt, pictureId: null }] });
}

/** `user` buys `quantity` of a variant, placing the order as themselves in SQL. */
async function buy(user: TestUser, variantId: string, quantity = 1) {
  await runAs(db.kysely, user.identity, async (trx) => {
    for (let i = 0; i < quantity; i++) await sql`select public.add_variant_to_cart(${variantId}::uuid)`.execute(trx);
  });
  return runAs(db.kysely, user.identity, async (trx) => {
    const reference = (await openReference(trx))!;
    const proofPath = await storeProof(trx, user);
    return callPlaceOrder(trx, { idempotencyKey: randomUUID(), reference, proofPath });
  });
}

function mailsOf(template: string, productName: string) {
  return db.kysely
    .selectFrom("mail_outbox")
    .select(["recipient", "data"])
    .where("template", "=", template)
    .where(sql<boolean>`data ->> 'productName' = ${productName}`)
    .orderBy("created_at")
    .execute();
}

function noticesOf(variantId: string) {
  return db.kysely.selectFrom("low_stock_notices").select(["id", "stock"]).where("variant_id", "=", variantId).orderBy("created_at").execute();
}

describe("low stock", () => {
  it("tells the admins once per crossing: two sales at or below the mark make one notice and one mail; a restock above it and a sale below make a second", async () => {
    const { variantId } = await countedProduct("Branded notebook", 5, 3);
    await buy(await createUser(db), variantId, 1);
    expect(await noticesOf(variantId)).toEqual([]);

    await buy(await createUser(db), variantId, 1); // 3: at the mark
    await buy(await createUser(db), variantId, 1); // 2: still below, no second notice
    expect((await noticesOf(variantId)).map((notice) => notice.stock)).toEqual([3]);
    const mails = await mailsOf("low_stock", "Branded notebook");
    expect(mails).toHaveLength(1);
    expect(mails[0]!.data).toMatchObject({ productName: "Branded notebook", stock: 3, lowStockAt: 3 });
    // To the shop's order-notice inbox (or its contact address when there is none).
    const shop = await db.kysely.selectFrom("shop_settings").select("contact_email").executeTakeFirstOrThrow();
    const inbox = await db.kysely.selectFrom("shop_private_settings").select("orders_email").executeTakeFirst();
    expect(mails[0]!.recipient).toBe(inbox?.orders_email ?? shop.contact_email);

    const product = await db.kysely.selectFrom("product_variants").select("product_id").where("id", "=", variantId).executeTakeFirstOrThrow();
    await setStock(product.product_id, variantId, 10, 3); // restocked above: re-armed
    await setStock(product.product_id, variantId, 10, 3); // saved again unchanged: nothing
    expect(await noticesOf(variantId)).toHaveLength(1);
    await buy(await createUser(db), variantId, 8); // 2
    expect((await noticesOf(variantId)).map((notice) => notice.stock)).toEqual([3, 2]);
    expect(await mailsOf("low_stock", "Branded notebook")).toHaveLength(2);
  });

  it("says what ran low to admins alone, live", async () => {
    const { id, variantId } = await countedProduct("Lanyard", 4, 1);
    await buy(await createUser(db), variantId, 3);
    const [notice] = await noticesOf(variantId);
    expect(await admin.stockNotices.lowStockNotice({ id: notice!.id })).toEqual({ name: "Lanyard", stock: 1, productId: id });
    const customer = await callerAs(db, await createUser(db));
    expect((await trpcRefusal(customer.stockNotices.lowStockNotice({ id: notice!.id }))).code).toBe("FORBIDDEN");

    const event = { table: "low_stock_notices", op: "INSERT", id: notice!.id, userId: null } as const;
    expect(mayHear({ id: randomUUID(), role: "admin" }, event)).toBe(true);
    expect(mayHear({ id: randomUUID(), role: "user" }, event)).toBe(false);
  });

  it("does not tell of a variant whose stock is not counted or that has no mark", async () => {
    const { id, variantId } = await countedProduct("Sticker sheet", 2);
    await buy(await createUser(db), variantId, 2);
    await admin.adminProducts.saveVariants({ productId: id, variants: [{ id: variantId, sku: null, price: null, available: true, stock: null, stockWas: 0, lowStockAt: 5, pictureId: null }] });
    expect(await noticesOf(variantId)).toEqual([]);
  });
});

describe("back in stock", () => {
  it("mails each customer who asked once when a sold-out variant is restocked, then forgets the request", async () => {
    const { id, variantId } = await countedProduct("Golf umbrella", 1);
    await buy(await createUser(db), variantId, 1);
    const alice = await createUser(db, { fullName: "Alice Dlamini" });
    const bob = await createUser(db, { fullName: "Bob Mokoena" });
    for (const user of [alice, bob]) {
      const caller = await callerAs(db, user);
      expect(await caller.stockNotices.ask({ variantId })).toEqual({ message: messages.stockNotices.asked });
      await caller.stockNotices.ask({ variantId }); // asked twice: still one request
      expect(await caller.stockNotices.requested({ variantIds: [variantId] })).toEqual([variantId]);
    }
    expect(await db.kysely.selectFrom("back_in_stock_requests").select("user_id").where("variant_id", "=", variantId).execute()).toHaveLength(2);

    await setStock(id, variantId, 5, null);
    const mails = await mailsOf("back_in_stock", "Golf umbrella");
    expect(mails.map((mail) => mail.recipient).sort()).toEqual([alice.email, bob.email].sort());
    expect(mails.find((mail) => mail.recipient === alice.email)!.data).toEqual({ customerName: "Alice Dlamini", productId: id, productName: "Golf umbrella" });
    expect(await db.kysely.selectFrom("back_in_stock_requests").select("id").where("variant_id", "=", variantId).execute()).toEqual([]);

    // Sold out and back again: nobody asked this time, so nobody is mailed.
    await buy(await createUser(db), variantId, 5);
    await setStock(id, variantId, 2, null);
    expect(await mailsOf("back_in_stock", "Golf umbrella")).toHaveLength(2);
  });

  it("mails when a cancelled order gives the last units back", async () => {
    const { variantId } = await countedProduct("Desk calendar", 2);
    const order = await buy(await createUser(db), variantId, 2);
    const carol = await createUser(db);
    await (await callerAs(db, carol)).stockNotices.ask({ variantId });
    await admin.adminOrders.updateStatus({ id: order.id, status: "cancelled" });
    expect((await mailsOf("back_in_stock", "Desk calendar")).map((mail) => mail.recipient)).toEqual([carol.email]);
  });

  it("takes requests only for a sold-out variant, and from signed-in callers", async () => {
    const { variantId } = await countedProduct("Mouse pad", 3);
    const caller = await callerAs(db, await createUser(db));
    const error = await trpcRefusal(caller.stockNotices.ask({ variantId }));
    expect({ code: error.code, message: error.message }).toEqual({ code: "BAD_REQUEST", message: messages.stockNotices.notSoldOut });
    expect((await trpcRefusal((await callerAs(db, null)).stockNotices.ask({ variantId }))).code).toBe("UNAUTHORIZED");
  });

  it("is the customer's own: another customer cannot see or delete it, admins may read it, and it goes with the account", async () => {
    const { variantId } = await countedProduct("Water bottle", 1);
    await buy(await createUser(db), variantId, 1);
    const dineo = await createUser(db);
    const other = await createUser(db);
    await (await callerAs(db, dineo)).stockNotices.ask({ variantId });

    const otherCaller = await callerAs(db, other);
    expect(await otherCaller.stockNotices.requested({ variantIds: [variantId] })).toEqual([]);
    expect((await trpcRefusal(otherCaller.stockNotices.withdraw({ variantId }))).code).toBe("NOT_FOUND");
    const seen = await runAs(db.kysely, other.identity, (trx) => trx.selectFrom("back_in_stock_requests").select("id").execute());
    expect(seen).toEqual([]);
    const deleted = await runAs(db.kysely, other.identity, (trx) => trx.deleteFrom("back_in_stock_requests").where("variant_id", "=", variantId).executeTakeFirst());
    expect(deleted.numDeletedRows).toBe(0n);
    // Nor can anyone ask in someone else's name.
    await expect(runAs(db.kysely, other.identity, (trx) => trx.insertInto("back_in_stock_requests").values({ user_id: dineo.id, variant_id: variantId }).execute())).rejects.toThrow();
    const adminSees = await runAs(db.kysely, adminUser.identity, (trx) => trx.selectFrom("back_in_stock_requests").select("user_id").where("variant_id", "=", variantId).execute());
    expect(adminSees).toEqual([{ user_id: dineo.id }]);

    await db.kysely.deleteFrom("auth.users").where("id", "=", dineo.id).execute();
    expect(await db.kysely.selectFrom("back_in_stock_requests").select("id").where("variant_id", "=", variantId).execute()).toEqual([]);
  });

  it("can be taken back, and is in the customer's data export until then", async () => {
    const { variantId } = await countedProduct("Cooler bag", 1);
    await buy(await createUser(db), variantId, 1);
    const caller = await callerAs(db, await createUser(db));
    await caller.stockNotices.ask({ variantId });
    const data = await caller.profile.exportData();
    expect(data.backInStockRequests).toEqual([{ product: "Cooler bag", askedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/) }]);
    expect(await caller.stockNotices.withdraw({ variantId })).toEqual({ message: messages.stockNotices.withdrawn });
    expect((await caller.profile.exportData()).backInStockRequests).toEqual([]);
  });
});
