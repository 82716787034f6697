/**
 * Model-based tests of the API (fast-check's fc.commands + fc.asyncModelRun; issue 29). The
 * fuzz test sends one bad input at a time; sequences reach states one call cannot (a cart line
 * at its limit, an order of a product made unavailable meanwhile, a retry after the account is
 * gone). Each run starts a clean shop and plays up to MAX_COMMANDS commands of customers, admins
 * and visitors through createCaller against a small reference model (tests/helpers/model/);
 * after every command: no 5xx, the answer agrees with the model, and the invariants hold.
 *
 * `npm test` runs a fixed seed and a few runs. MODEL_RUNS=300 (npm run test:model) runs longer,
 * with a fresh seed unless MODEL_SEED is set; a failure prints the seed and path to replay it
 * (MODEL_SEED, MODEL_PATH, and MODEL_REPLAY for the commands' replayPath fast-check reports).
 * MODEL_STATS=1 prints how often each command ran and how each call answered (=messages: with
 * the refusals' messages), to see what the runs reach.
 */
import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_CART_LINE_QUANTITY } from "@/lib/constants";
import { messages } from "@/lib/messages";
import { trpcRefusal } from "../helpers/attempt";
import { callerAs, testStorageRoot } from "../helpers/browser";
import { createUser, freshDatabase, type TestDatabase } from "../helpers/database";
import { startFakeWhatsApp, type FakeWhatsApp } from "../helpers/fake-whatsapp";
import { fileOf, makePng } from "../helpers/images";
import { listObjectFiles } from "@/server/platform/adapters/local/local-storage";
import { tally } from "../helpers/model/answers";
import { shopCommands } from "../helpers/model/commands";
import { startRun } from "../helpers/model/real-shop";

const LONG = process.env.MODEL_RUNS !== undefined;
const RUNS = Number(process.env.MODEL_RUNS ?? 40);
// A long run explores: a seed of its own each time, printed on failure so it can be replayed.
const SEED = process.env.MODEL_SEED !== undefined ? Number(process.env.MODEL_SEED) : LONG ? Math.floor(Math.random() * 2 ** 31) : 29;
const PATH = process.env.MODEL_PATH;
const REPLAY = process.env.MODEL_REPLAY;
const MAX_COMMANDS = 50;

/** The prices a run's three products start at: ordinary ones, a cent, and the largest an admin can type. */
const startingPrices = fc.array(fc.constantFrom("150.00", "149.50", "0.01", "2500.00", "150.00", "149.50", "2500.00", "9999999999.99"), { minLength: 3, maxLength: 3 });

let db: TestDatabase;
let whatsapp: FakeWhatsApp;

beforeAll(async () => {
  db = await freshDatabase();
  whatsapp = await startFakeWhatsApp();
});

afterAll(async () => {
  await whatsapp?.close();
  if (process.env.MODEL_STATS) console.log([...tally].sort().map(([key, n]) => `${String(n).padStart(6)}  ${key}`).join("\n"));
  await db?.close();
});

describe("the shop against its model", () => {
  it(
    `agrees with the model after every command, with no 5xx (${RUNS} runs of up to ${MAX_COMMANDS} commands, seed ${SEED})`,
    async () => {
      const details = await fc.check(
        fc.asyncProperty(startingPrices, shopCommands(MAX_COMMANDS, REPLAY), async (prices, commands) => {
          await fc.asyncModelRun(() => startRun(db, prices, whatsapp), commands);
        }),
        { numRuns: RUNS, seed: SEED, path: PATH },
      );
      if (details.failed) {
        console.error(
          `[model] failed: replay with MODEL_SEED=${details.seed} MODEL_PATH=${details.counterexamplePath ?? ""}` +
            " (and MODEL_REPLAY=<the replayPath in the counterexample>)",
        );
        throw new Error(`${fc.defaultReportMessage(details)}\n${String(details.errorInstance)}`, { cause: details.errorInstance });
      }
    },
    LONG ? 4 * 3_600_000 : 120_000,
  );
});

describe("what the model found answers 4xx with a clear message", () => {
  async function customerWithLine(quantity: number) {
    const user = await createUser(db);
    const caller = await callerAs(db, user);
    const product = await db.kysely.selectFrom("products").select(["id", "name"]).where("available", "=", true).limit(1).executeTakeFirstOrThrow();
    await caller.cart.add({ productId: product.id });
    await sql`update public.cart_items set quantity = ${quantity} where user_id = ${user.id}::uuid`.execute(db.kysely);
    return { user, caller, product };
  }

  async function lineIdOf(userId: string) {
    return (await db.kysely.selectFrom("cart_items").select("id").where("user_id", "=", userId).executeTakeFirstOrThrow()).id;
  }

  async function lineQuantity(userId: string) {
    const row = await db.kysely.selectFrom("cart_items").select("quantity").where("user_id", "=", userId).executeTakeFirstOrThrow();
    return row.quantity;
  }

  it("keeps MAX_CART_LINE_QUANTITY equal to cart_items.quantity's check in the database", async () => {
    const { rows } = await sql<{ definition: string }>`
      select pg_get_constraintdef(oid) as definition from pg_constraint
      where conrelid = 'public.cart_items'::regclass and conname = 'cart_items_quantity_check'`.execute(db.kysely);
    const bound = /<=\s*(\d+)/.exec(rows[0]?.definition ?? "")?.[1];
    expect(Number(bound), rows[0]?.definition).toBe(MAX_CART_LINE_QUANTITY);
  });

  it("refuses cart.add and cart.increase on a line at the limit, saying the number", async () => {
    const { user, caller, product } = await customerWithLine(MAX_CART_LINE_QUANTITY);
    expect(messages.cart.lineLimit).toBe("You can have at most 10,000 of one item in your cart.");
    const lineId = await lineIdOf(user.id);
    for (const call of [() => caller.cart.add({ productId: product.id }), () => caller.cart.increase({ lineId })]) {
      const error = await trpcRefusal(call());
      expect({ code: error.code, message: error.message }).toEqual({ code: "BAD_REQUEST", message: messages.cart.lineLimit });
    }
    expect(await lineQuantity(user.id)).toBe(MAX_CART_LINE_QUANTITY);
    expect(await caller.cart.decrease({ lineId })).toEqual({ message: messages.cart.quantityUpdated(product.name) });
    expect(await caller.cart.add({ productId: product.id })).toEqual({ quantity: MAX_CART_LINE_QUANTITY, message: messages.cart.quantityUpdated(product.name) });
  });

  it("refuses cart.increase on a line whose product became unavailable, as cart.add does", async () => {
    const { user, caller, product } = await customerWithLine(2);
    await db.kysely.updateTable("products").set({ available: false }).where("id", "=", product.id).execute();
    try {
      const lineId = await lineIdOf(user.id);
      const error = await trpcRefusal(caller.cart.increase({ lineId }));
      expect({ code: error.code, message: error.message }).toEqual({ code: "BAD_REQUEST", message: messages.cart.unavailable });
      expect(await lineQuantity(user.id)).toBe(2);
      expect(await caller.cart.decrease({ lineId })).toEqual({ message: messages.cart.quantityUpdated(product.name) });
    } finally {
      await db.kysely.updateTable("products").set({ available: true }).where("id", "=", product.id).execute();
    }
  });

  it("says a line is gone in messages.ts's words", async () => {
    const caller = await callerAs(db, await createUser(db));
    const error = await trpcRefusal(caller.cart.increase({ lineId: randomUUID() }));
    expect({ code: error.code, message: error.message }).toEqual({ code: "NOT_FOUND", message: messages.cart.lineGone });
  });

  it("answers a request under way when its account was deleted as signed out, storing nothing", async () => {
    const user = await createUser(db);
    const caller = await callerAs(db, user);
    // Built before the deletion: another tab's request already past its session check.
    const inFlight = await callerAs(db, user);
    const product = await db.kysely.selectFrom("products").select("id").where("available", "=", true).limit(1).executeTakeFirstOrThrow();
    await caller.profile.deleteAccount();
    const messagesBefore = await db.kysely.selectFrom("contact_messages").select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow();

    const add = await trpcRefusal(inFlight.cart.add({ productId: product.id }));
    expect({ code: add.code, message: add.message }).toEqual({ code: "UNAUTHORIZED", message: messages.auth.signInRequired });
    const contact = await trpcRefusal(inFlight.contact.send({ name: "Gone", email: "gone@example.test", phone: "", message: "Hello?" }));
    expect({ code: contact.code, message: contact.message }).toEqual({ code: "UNAUTHORIZED", message: messages.contact.signedOut });
    expect(await db.kysely.selectFrom("cart_items").select("id").where("user_id", "=", user.id).execute()).toEqual([]);
    expect(await db.kysely.selectFrom("contact_messages").select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow()).toEqual(messagesBefore);
  });

  it("refuses an order whose total is more than an order can hold, keeping the cart and leaving no proof behind", async () => {
    const { user, caller, product } = await customerWithLine(2);
    const category = await db.kysely.selectFrom("products").select("category_id").where("id", "=", product.id).executeTakeFirstOrThrow();
    const costly = await db.kysely
      .insertInto("products")
      .values({ name: "The most expensive thing", description: "", price: "9999999999.99", category_id: category.category_id, image_path: null })
      .returning("id")
      .executeTakeFirstOrThrow();
    await caller.cart.add({ productId: costly.id });
    const { reference } = await caller.checkout.start();
    const filesBefore = (await listObjectFiles(testStorageRoot(db))).length;
    const form = new FormData();
    form.set("proof", fileOf(makePng(8, 8), "proof.png"));
    form.set("reference", reference!);
    form.set("idempotencyKey", randomUUID());
    const error = await trpcRefusal(caller.checkout.placeOrder(form));
    expect({ code: error.code, message: error.message }).toEqual({ code: "BAD_REQUEST", message: messages.checkout.totalTooLarge });
    expect(await db.kysely.selectFrom("cart_items").select("quantity").where("user_id", "=", user.id).orderBy("added_at").execute()).toEqual([
      { quantity: 2 },
      { quantity: 1 },
    ]);
    expect((await listObjectFiles(testStorageRoot(db))).length).toBe(filesBefore);
    expect(await caller.checkout.start()).toMatchObject({ reference });
  });
});
