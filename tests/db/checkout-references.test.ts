import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ANON, runAs, type Tx } from "@/server/db/as-caller";
import { attempt, errorMessage } from "../helpers/attempt";
import { createUser, freshDatabase, type TestDatabase, type TestUser } from "../helpers/database";
import { callPlaceOrder, openReference, placeTestOrder, randomReference, storeProof } from "../helpers/orders";

/**
 * One bank-transfer reference per checkout (supabase/migrations/20261124000100_checkout_reference.sql):
 * open_checkout_reference() reserves it once, place_order() accepts only it and closes it.
 */

let db: TestDatabase;
let pie: string;

beforeAll(async () => {
  db = await freshDatabase({ seed: false });
  const category = (await db.kysely.insertInto("categories").values({ name: "Food Products" }).returning("id").executeTakeFirstOrThrow()).id;
  pie = (await db.kysely.insertInto("products").values({ name: "Chicken pie", price: "35.00", category_id: category, image_path: null }).returning("id").executeTakeFirstOrThrow()).id;
});

afterAll(async () => {
  await db?.close();
});

function open(user: TestUser) {
  return runAs(db.kysely, user.identity, openReference);
}

function addToCart(user: TestUser) {
  return runAs(db.kysely, user.identity, (trx) => sql`select public.add_to_cart(${pie}::uuid)`.execute(trx));
}

function place(user: TestUser, reference: string, key = randomUUID()) {
  return runAs(db.kysely, user.identity, async (trx) => {
    const proofPath = await storeProof(trx, user);
    return callPlaceOrder(trx, { idempotencyKey: key, reference, proofPath });
  });
}

function reservationsOf(user: TestUser) {
  return db.kysely.selectFrom("checkout_references").select("reference").where("user_id", "=", user.id).execute();
}

function ordersOf(user: TestUser) {
  return db.kysely.selectFrom("orders").select(["id", "reference"]).where("user_id", "=", user.id).execute();
}

function cartOf(user: TestUser) {
  return db.kysely.selectFrom("cart_items").select(["product_id", "quantity"]).where("user_id", "=", user.id).execute();
}

/** A customer with one pie in the cart. */
async function shopper(): Promise<TestUser> {
  const user = await createUser(db);
  await addToCart(user);
  return user;
}

/** The first reference random() draws after setseed(seed), in the function's own format. */
async function firstDrawAfter(seed: number): Promise<string> {
  return runAs(db.kysely, ANON, async (trx) => {
    await sql`select setseed(${seed})`.execute(trx);
    const { rows } = await sql<{ reference: string }>`select 'ORD-' || floor(random() * 1000000)::int as reference`.execute(trx);
    return rows[0]!.reference;
  });
}

/** open_checkout_reference() for `user` with random() seeded, so its first draw is known. */
function openSeeded(user: TestUser, seed: number) {
  return runAs(db.kysely, user.identity, async (trx: Tx) => {
    await sql`select setseed(${seed})`.execute(trx);
    return openReference(trx);
  });
}

describe("open_checkout_reference", () => {
  it("reserves nothing for an empty cart", async () => {
    const user = await createUser(db);
    expect(await open(user)).toBeNull();
    expect(await reservationsOf(user)).toEqual([]);
  });

  it("reserves one reference on the first call and returns the same one on every later call", async () => {
    const user = await shopper();
    const first = await open(user);
    expect(first).toMatch(/^ORD-\d{1,6}$/);
    expect([await open(user), await open(user)]).toEqual([first, first]);
    expect(await reservationsOf(user)).toEqual([{ reference: first }]);
  });

  it("keeps the reservation when the cart empties again", async () => {
    const user = await shopper();
    const reference = await open(user);
    await db.kysely.deleteFrom("cart_items").where("user_id", "=", user.id).execute();
    expect(await open(user)).toBe(reference);
  });

  it("50 parallel first calls of one customer reserve one reference", async () => {
    const user = await shopper();
    // On PostgreSQL: open 50 connections first and start every call with a short wait, so the 50
    // calls really overlap instead of finishing one by one while the pool connects.
    const together = () => sql`select pg_sleep(0.02)`;
    await Promise.all(Array.from({ length: 50 }, () => runAs(db.kysely, ANON, (trx) => together().execute(trx))));
    const references = await Promise.all(
      Array.from({ length: 50 }, () =>
        runAs(db.kysely, user.identity, async (trx) => {
          await together().execute(trx);
          return openReference(trx);
        }),
      ),
    );
    expect(new Set(references).size).toBe(1);
    expect(references[0]).toMatch(/^ORD-\d{1,6}$/);
    expect(await reservationsOf(user)).toEqual([{ reference: references[0] }]);
  });

  it("never hands out a reference another customer holds reserved", async () => {
    const seed = 0.25;
    const drawn = await firstDrawAfter(seed);
    const [holder, next] = [await shopper(), await shopper()];
    expect(await openSeeded(holder, seed)).toBe(drawn);
    // The same seed draws the held reference first: the function must pass it by.
    const second = await openSeeded(next, seed);
    expect(second).toMatch(/^ORD-\d{1,6}$/);
    expect(second).not.toBe(drawn);
  });

  it("never hands out a reference an order already carries", async () => {
    const seed = -0.5;
    const drawn = await firstDrawAfter(seed);
    const buyer = await shopper();
    expect(await openSeeded(buyer, seed)).toBe(drawn);
    const order = await place(buyer, drawn);
    expect(order.reference).toBe(drawn);
    expect(await reservationsOf(buyer)).toEqual([]);
    const later = await shopper();
    const reference = await openSeeded(later, seed);
    expect(reference).not.toBe(drawn);
    // The buyer's next checkout gets a new one too.
    await addToCart(buyer);
    expect(await openSeeded(buyer, seed)).not.toBe(drawn);
  });

  it("refuses a visitor, and the API roles cannot call new_order_reference() any more", async () => {
    expect(errorMessage((await attempt(db, ANON, openReference)).error)).toMatch(/permission denied/);
    const user = await shopper();
    const direct = await attempt(db, user.identity, (trx) => sql`select public.new_order_reference()`.execute(trx));
    expect(errorMessage(direct.error)).toMatch(/permission denied/);
  });

  it("a customer reads only their own reservation and writes none directly", async () => {
    const [a, b] = [await shopper(), await shopper()];
    const reference = (await open(a))!;
    await open(b);
    const seen = await runAs(db.kysely, a.identity, (trx) => trx.selectFrom("checkout_references").select(["user_id", "reference"]).execute());
    expect(seen).toEqual([{ user_id: a.id, reference }]);
    const writes: ((trx: Tx) => Promise<unknown>)[] = [
      (trx: Tx) => trx.insertInto("checkout_references").values({ user_id: a.id, reference: randomReference() }).execute(),
      (trx: Tx) => trx.updateTable("checkout_references").set({ reference: randomReference() }).where("user_id", "=", a.id).execute(),
      (trx: Tx) => trx.deleteFrom("checkout_references").where("user_id", "=", a.id).execute(),
    ];
    for (const write of writes) {
      expect(errorMessage((await attempt(db, a.identity, write)).error)).toMatch(/permission denied/);
    }
    expect(await reservationsOf(a)).toEqual([{ reference }]);
  });

  it("goes with the account", async () => {
    const user = await shopper();
    await open(user);
    await db.kysely.deleteFrom("auth.users").where("id", "=", user.id).execute();
    expect(await reservationsOf(user)).toEqual([]);
  });
});

describe("place_order takes only the customer's open reference", () => {
  it("places the order with it, closes the reservation in the same transaction, and the next checkout gets another", async () => {
    const user = await shopper();
    const reference = (await open(user))!;
    const order = await place(user, reference);
    expect(order.reference).toBe(reference);
    expect(await reservationsOf(user)).toEqual([]);
    expect(await open(user)).toBeNull();
    await addToCart(user);
    const next = await open(user);
    expect(next).toMatch(/^ORD-\d{1,6}$/);
    expect(next).not.toBe(reference);
  });

  it("keeps the reservation when the order fails", async () => {
    const user = await shopper();
    const reference = (await open(user))!;
    await db.kysely.updateTable("products").set({ available: false }).where("id", "=", pie).execute();
    try {
      await expect(place(user, reference)).rejects.toThrow("product_unavailable");
    } finally {
      await db.kysely.updateTable("products").set({ available: true }).where("id", "=", pie).execute();
    }
    expect(await reservationsOf(user)).toEqual([{ reference }]);
    expect((await place(user, reference)).reference).toBe(reference);
  });

  it("a retry with the same idempotency key returns the first order though its reservation is closed", async () => {
    const user = await shopper();
    const reference = (await open(user))!;
    const key = randomUUID();
    const first = await place(user, reference, key);
    await addToCart(user);
    expect(await place(user, reference, key)).toMatchObject({ id: first.id, reference });
    expect(await ordersOf(user)).toEqual([{ id: first.id, reference }]);
  });

  describe("refuses, changing nothing", () => {
    async function expectRefused(user: TestUser, reference: string, code: string) {
      const [reserved, orders] = [await reservationsOf(user), await ordersOf(user)];
      await expect(place(user, reference)).rejects.toThrow(code);
      expect(await ordersOf(user)).toEqual(orders);
      expect(await cartOf(user)).toEqual([{ product_id: pie, quantity: 1 }]);
      expect(await reservationsOf(user)).toEqual(reserved);
    }

    it("another customer's reserved reference", async () => {
      const [user, other] = [await shopper(), await shopper()];
      await open(user);
      const theirs = (await open(other))!;
      await expectRefused(user, theirs, "reference_stale");
      expect(await reservationsOf(other)).toEqual([{ reference: theirs }]);
    });

    it("a made-up reference, with or without a reservation of one's own", async () => {
      const user = await shopper();
      await expectRefused(user, randomReference(), "reference_stale");
      await open(user);
      await expectRefused(user, randomReference(), "reference_stale");
    });

    it("a stale reference, used by the customer's earlier order", async () => {
      const user = await createUser(db);
      const earlier = await placeTestOrder(db, user, [pie]);
      await addToCart(user);
      await expectRefused(user, earlier.reference, "reference_stale");
      await open(user);
      await expectRefused(user, earlier.reference, "reference_stale");
    });

    it("a malformed reference", async () => {
      const user = await shopper();
      await open(user);
      await expectRefused(user, "ORD-1234567", "reference_invalid");
      await expectRefused(user, "ord-12", "reference_invalid");
    });
  });
});
