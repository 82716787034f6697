import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ANON, runAs } from "@/server/db/as-caller";
import { attempt, errorMessage } from "../helpers/attempt";
import { createUser, freshDatabase, type TestDatabase, type TestUser } from "../helpers/database";
import { callPlaceOrder, openReference, placeTestOrder, randomReference, storeProof } from "../helpers/orders";

let db: TestDatabase;
let category: string;

async function newProduct(price: string, available = true) {
  const row = await db.kysely
    .insertInto("products")
    .values({ name: `Product ${price}`, price, category_id: category, image_path: null, available })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

function addToCart(user: TestUser, productId: string) {
  return runAs(db.kysely, user.identity, (trx) => sql`select public.add_to_cart(${productId}::uuid)`.execute(trx));
}

function cartOf(user: TestUser) {
  return db.kysely.selectFrom("cart_items").select(["product_id", "quantity"]).where("user_id", "=", user.id).orderBy("added_at").execute();
}

beforeAll(async () => {
  db = await freshDatabase({ seed: false });
  category = (await db.kysely.insertInto("categories").values({ name: "Food Products" }).returning("id").executeTakeFirstOrThrow()).id;
});

afterAll(async () => {
  await db?.close();
});

describe("add_to_cart", () => {
  let user: TestUser;
  beforeEach(async () => {
    user = await createUser(db);
  });

  it("starts a new line at quantity 1", async () => {
    const pie = await newProduct("35.00");
    await addToCart(user, pie);
    expect(await cartOf(user)).toEqual([{ product_id: pie, quantity: 1 }]);
  });

  it("adds 1 to an existing line", async () => {
    const pie = await newProduct("35.00");
    await addToCart(user, pie);
    await addToCart(user, pie);
    await addToCart(user, pie);
    expect(await cartOf(user)).toEqual([{ product_id: pie, quantity: 3 }]);
  });

  it("refuses an unavailable product and changes nothing", async () => {
    const gone = await newProduct("10.00", false);
    await expect(addToCart(user, gone)).rejects.toThrow("product_unavailable");
    expect(await cartOf(user)).toEqual([]);
  });

  it("refuses an unknown product", async () => {
    await expect(addToCart(user, randomUUID())).rejects.toThrow("product_unavailable");
  });

  it("refuses a visitor", async () => {
    const pie = await newProduct("35.00");
    const result = await attempt(db, ANON, (trx) => sql`select public.add_to_cart(${pie}::uuid)`.execute(trx));
    expect(result.ok).toBe(false);
  });
});

describe("place_order", () => {
  let user: TestUser;
  beforeEach(async () => {
    user = await createUser(db, { fullName: "Naledi Mokoena" });
  });

  /** Places the order as `user`, by default with their reserved reference (a made-up one while nothing is reserved). */
  function place(key = randomUUID(), reference?: string) {
    return runAs(db.kysely, user.identity, async (trx) => {
      const paidWith = reference ?? (await openReference(trx)) ?? randomReference();
      const proofPath = await storeProof(trx, user);
      return callPlaceOrder(trx, { idempotencyKey: key, reference: paidWith, proofPath });
    });
  }

  it("refuses an empty cart", async () => {
    await expect(place()).rejects.toThrow("cart_empty");
    expect(await db.kysely.selectFrom("orders").select("id").where("user_id", "=", user.id).execute()).toEqual([]);
  });

  it("refuses a cart holding a product that became unavailable, and keeps the cart", async () => {
    const pie = await newProduct("35.00");
    await addToCart(user, pie);
    await db.kysely.updateTable("products").set({ available: false }).where("id", "=", pie).execute();
    await expect(place()).rejects.toThrow("product_unavailable");
    expect(await cartOf(user)).toEqual([{ product_id: pie, quantity: 1 }]);
  });

  it("computes the total from the database's current prices, writes the lines and empties the cart", async () => {
    const pie = await newProduct("35.00");
    const noodles = await newProduct("49.50");
    await addToCart(user, pie);
    await addToCart(user, pie);
    await addToCart(user, noodles);
    // The price changes after the items went into the cart: the order uses the price at purchase.
    await db.kysely.updateTable("products").set({ price: "40.00" }).where("id", "=", pie).execute();

    const order = await place();
    expect(order.total).toBe("129.50");
    expect(order.status).toBe("pending_payment");
    expect(order.customer_name).toBe("Naledi Mokoena");
    expect(order.customer_email).toBe(user.email);
    const lines = await db.kysely
      .selectFrom("order_items")
      .select(["product_id", "unit_price", "quantity"])
      .where("order_id", "=", order.id)
      .orderBy("unit_price")
      .execute();
    expect(lines).toEqual([
      { product_id: pie, unit_price: "40.00", quantity: 2 },
      { product_id: noodles, unit_price: "49.50", quantity: 1 },
    ]);
    expect(await cartOf(user)).toEqual([]);
  });

  it("returns the same order for the same idempotency key instead of making a second", async () => {
    const pie = await newProduct("35.00");
    await addToCart(user, pie);
    const key = randomUUID();
    const first = await place(key);
    await addToCart(user, pie);
    // The retry quotes the reference it was sent with, whose reservation the first call closed.
    const again = await place(key, first.reference);
    expect(again.id).toBe(first.id);
    expect(await place(key)).toMatchObject({ id: first.id, reference: first.reference });
    expect(await db.kysely.selectFrom("orders").select("id").where("user_id", "=", user.id).execute()).toHaveLength(1);
    expect(await cartOf(user)).toEqual([{ product_id: pie, quantity: 1 }]);
  });

  it("requires a proof of payment stored in the customer's own folder", async () => {
    const pie = await newProduct("35.00");
    await addToCart(user, pie);
    const other = await createUser(db);
    const attemptWith = (proofPath: string | null) =>
      runAs(db.kysely, user.identity, (trx) =>
        callPlaceOrder(trx, { idempotencyKey: randomUUID(), reference: randomReference(), proofPath }),
      );
    await expect(attemptWith(null)).rejects.toThrow("proof_required");
    await expect(attemptWith(`${user.id}/never-uploaded.png`)).rejects.toThrow("proof_invalid");
    const othersProof = await runAs(db.kysely, other.identity, (trx) => storeProof(trx, other));
    await expect(attemptWith(othersProof)).rejects.toThrow("proof_invalid");
    expect(await cartOf(user)).toHaveLength(1);
  });

  it("refuses a malformed reference, or one another order already used", async () => {
    const pie = await newProduct("35.00");
    await addToCart(user, pie);
    await expect(place(randomUUID(), "ORD-1234567")).rejects.toThrow("reference_invalid");
    const other = await createUser(db);
    const taken = await placeTestOrder(db, other, [pie]);
    await expect(place(randomUUID(), taken.reference)).rejects.toThrow("reference_stale");
    expect(await cartOf(user)).toHaveLength(1);
  });

  it("records the creation and every status change with who made it", async () => {
    const pie = await newProduct("35.00");
    const admin = await createUser(db, { role: "admin" });
    const order = await placeTestOrder(db, user, [pie]);
    await runAs(db.kysely, admin.identity, (trx) =>
      trx.updateTable("orders").set({ status: "pending_delivery" }).where("id", "=", order.id).execute(),
    );
    const events = await db.kysely
      .selectFrom("order_status_events")
      .select(["from_status", "to_status", "changed_by"])
      .where("order_id", "=", order.id)
      .orderBy("id")
      .execute();
    expect(events).toEqual([
      { from_status: null, to_status: "pending_payment", changed_by: user.id },
      { from_status: "pending_payment", to_status: "pending_delivery", changed_by: admin.id },
    ]);
  });
});

describe("concurrency", () => {
  it("50 parallel checkouts of one cart make exactly one order", async () => {
    const user = await createUser(db);
    const pie = await newProduct("35.00");
    await addToCart(user, pie);
    const reference = (await runAs(db.kysely, user.identity, openReference))!;
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, () =>
        runAs(db.kysely, user.identity, async (trx) => {
          const proofPath = await storeProof(trx, user);
          return callPlaceOrder(trx, { idempotencyKey: randomUUID(), reference, proofPath });
        }),
      ),
    );
    const placed = results.filter((r) => r.status === "fulfilled");
    const refused = results.filter((r) => r.status === "rejected").map((r) => errorMessage(r.reason));
    expect(placed).toHaveLength(1);
    expect(new Set(refused)).toEqual(new Set(["cart_empty"]));
    expect(await db.kysely.selectFrom("orders").select("id").where("user_id", "=", user.id).execute()).toHaveLength(1);
  });

  it("50 customers ordering at once make 50 correct orders", async () => {
    const pie = await newProduct("35.00");
    const noodles = await newProduct("49.50");
    const customers = await Promise.all(Array.from({ length: 50 }, () => createUser(db)));
    const orders = await Promise.all(customers.map((user) => placeTestOrder(db, user, [pie, noodles, pie])));
    expect(orders.every((order) => order.total === "119.50")).toBe(true);
    expect(new Set(orders.map((order) => order.id)).size).toBe(50);
    const counts = await db.kysely
      .selectFrom("order_items")
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .where("order_id", "in", orders.map((order) => order.id))
      .executeTakeFirstOrThrow();
    expect(Number(counts.n)).toBe(100);
  });
});
