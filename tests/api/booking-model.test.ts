/**
 * Model-based tests of bookings (fast-check's fc.commands + fc.asyncModelRun; issue 38): random
 * sequences of customers holding times, checking out, moving and cancelling their bookings, and an
 * admin moving and cancelling any, against a small model (tests/helpers/model/bookings-model.ts);
 * after every command the answer agrees with the model, no time is booked twice, and the free
 * times everyone sees are exactly the ones nobody booked or holds.
 *
 * `npm test` runs a fixed seed and a few runs; MODEL_RUNS (npm run test:model) runs more, with a
 * fresh seed unless MODEL_SEED is set (printed on failure).
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, it } from "vitest";
import { shopDay } from "@/lib/days";
import { callerAs } from "../helpers/browser";
import { createUser, freshDatabase, type TestDatabase } from "../helpers/database";
import { BOOKING_CUSTOMERS, BOOKING_TIMES, bookingCommands, type BookingModel, type BookingReal } from "../helpers/model/bookings-model";

const LONG = process.env.MODEL_RUNS !== undefined;
const RUNS = Number(process.env.MODEL_RUNS ?? 15);
const SEED = process.env.MODEL_SEED !== undefined ? Number(process.env.MODEL_SEED) : LONG ? Math.floor(Math.random() * 2 ** 31) : 38;
// Each customer checks out at most once per hold: well inside CHECKOUT_LIMIT.
const MAX_COMMANDS = 16;

let db: TestDatabase;
let categoryId: string;

beforeAll(async () => {
  db = await freshDatabase();
  categoryId = (await db.kysely.selectFrom("categories").select("id").limit(1).executeTakeFirstOrThrow()).id;
});

afterAll(async () => {
  await db?.close();
});

/** A fresh run: a 30-minute service with one place, every day 08:00-18:00, no notice and no deposit; fresh customers; tomorrow's first times. */
async function startRun(): Promise<{ model: BookingModel; real: BookingReal }> {
  const productId = (await db.kysely.insertInto("products").values({ name: "Model clean", price: "300.00", category_id: categoryId, image_path: null }).returning("id").executeTakeFirstOrThrow()).id;
  await db.kysely.insertInto("bookable_services").values({ product_id: productId, duration_minutes: 30, notice_hours: 0, capacity: 1, deposit: "none" }).execute();
  for (let weekday = 1; weekday <= 7; weekday++) {
    await db.kysely.insertInto("bookable_service_hours").values({ product_id: productId, weekday, opens: "08:00", closes: "18:00" }).execute();
  }
  const users = await Promise.all(Array.from({ length: BOOKING_CUSTOMERS }, () => createUser(db)));
  const visitor = await callerAs(db, null);
  const slots = await visitor.bookings.freeSlots({ productId, from: shopDay(1), days: 1 });
  return {
    model: { holds: Array.from({ length: BOOKING_TIMES }, () => null), bookings: [] },
    real: {
      db,
      productId,
      times: slots.slice(0, BOOKING_TIMES).map((slot) => slot.startsAt.toISOString()),
      customers: await Promise.all(users.map((user) => callerAs(db, user))),
      customerIds: users.map((user) => user.id),
      admin: await callerAs(db, await createUser(db, { role: "admin" })),
      visitor,
    },
  };
}

describe("bookings against their model", () => {
  it(
    `agree with the model after every hold, checkout, move and cancellation (${RUNS} runs of up to ${MAX_COMMANDS} commands, seed ${SEED})`,
    async () => {
      const details = await fc.check(
        fc.asyncProperty(bookingCommands(MAX_COMMANDS), async (commands) => {
          await fc.asyncModelRun(startRun, commands);
        }),
        { numRuns: RUNS, seed: SEED },
      );
      if (details.failed) {
        console.error(`[booking model] failed: replay with MODEL_SEED=${details.seed}`);
        throw new Error(`${fc.defaultReportMessage(details)}\n${String(details.errorInstance)}`, { cause: details.errorInstance });
      }
    },
    LONG ? 3_600_000 : 120_000,
  );
});
