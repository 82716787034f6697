import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { orderPageMessages } from "@/lib/messages";
import { runAs } from "@/server/db/as-caller";
import { placeOrderPayNow } from "@/server/payments/payment-queries";
import { trpcRefusal } from "../helpers/attempt";
import { callerAs } from "../helpers/browser";
import { createUser, freshDatabase, type TestDatabase, type TestUser } from "../helpers/database";
import { SANDBOX_MERCHANT } from "../helpers/fake-payfast";
import { openReference, placeTestOrder } from "../helpers/orders";

let db: TestDatabase;
let productIds: string[];

beforeAll(async () => {
  db = await freshDatabase();
  productIds = (await db.kysely.selectFrom("products").select("id").orderBy("name").limit(2).execute()).map((row) => row.id);
  // PayFast set up, so an unpaid order without a proof can be paid now.
  await db.kysely
    .insertInto("payment_settings")
    .values({ payfast_merchant_id: SANDBOX_MERCHANT.merchantId, payfast_merchant_key: SANDBOX_MERCHANT.merchantKey, payfast_passphrase: SANDBOX_MERCHANT.passphrase, payfast_sandbox: true })
    .execute();
});

afterAll(async () => {
  await db?.close();
});

/** An order `user` placed with "Pay now" and left unpaid (no proof): one they can still pay. */
async function unpaidPayNowOrder(user: TestUser) {
  return runAs(db.kysely, user.identity, async (trx) => {
    await sql`select public.add_to_cart(${productIds[0]!}::uuid)`.execute(trx);
    const reference = (await openReference(trx))!;
    return placeOrderPayNow(trx, { idempotencyKey: randomUUID(), reference });
  });
}

describe("orders.byReference", () => {
  it("gives the customer their own order: lines, total, status history, the bank details while unpaid", async () => {
    const customer = await createUser(db, { fullName: "Order Owner" });
    const placed = await placeTestOrder(db, customer, productIds);
    const order = await (await callerAs(db, customer)).orders.byReference({ reference: placed.reference });
    expect(order).toMatchObject({ id: placed.id, reference: placed.reference, status: "pending_payment", total: Number(placed.total) });
    expect(order.items).toHaveLength(2);
    expect(order.history.map((event) => event.to)).toEqual(["pending_payment"]);
    expect(order.bank?.accountNumber).toBeTruthy();
    // Its proof is with the shop: nothing more to pay here.
    expect(order).toMatchObject({ payable: false, payNow: false });
    // The page's URL may carry it in any case.
    expect((await (await callerAs(db, customer)).orders.byReference({ reference: placed.reference.toLowerCase() })).id).toBe(placed.id);
  });

  it("offers Pay now and the proof upload for an unpaid order without a proof, and no bank details once it is paid", async () => {
    const customer = await createUser(db);
    const placed = await unpaidPayNowOrder(customer);
    const caller = await callerAs(db, customer);
    const unpaid = await caller.orders.byReference({ reference: placed.reference });
    expect(unpaid).toMatchObject({ payable: true, payNow: true, paymentMethod: "payfast", proofUrl: null });
    expect(unpaid.bank?.accountNumber).toBeTruthy();
    const admin = await callerAs(db, await createUser(db, { role: "admin" }));
    await admin.adminOrders.updateStatus({ id: placed.id, status: "pending_delivery" });
    const paid = await caller.orders.byReference({ reference: placed.reference });
    expect(paid).toMatchObject({ status: "pending_delivery", payable: false, bank: null });
    expect(paid.history.map((event) => event.to)).toEqual(["pending_payment", "pending_delivery"]);
  });

  it("is NOT_FOUND for another customer's order, as for one that does not exist; an admin sees any", async () => {
    const owner = await createUser(db);
    const placed = await placeTestOrder(db, owner, [productIds[0]!]);
    const other = await callerAs(db, await createUser(db));
    const refusal = await trpcRefusal(other.orders.byReference({ reference: placed.reference }));
    expect(refusal).toMatchObject({ code: "NOT_FOUND", message: orderPageMessages.notFound });
    expect((await trpcRefusal(other.orders.byReference({ reference: "ORD-999998" }))).code).toBe("NOT_FOUND");
    const admin = await callerAs(db, await createUser(db, { role: "admin" }));
    // An admin looks; paying is the customer's.
    expect(await admin.orders.byReference({ reference: placed.reference })).toMatchObject({ id: placed.id, payable: false, payNow: false });
  });

  it("refuses what is not a reference (zod) and a visitor", async () => {
    const caller = await callerAs(db, await createUser(db));
    for (const reference of ["", "abc", "ORD-", "ORD-1234567", "ORD-12;drop", "' or 1=1 --"]) {
      expect(await trpcRefusal(caller.orders.byReference({ reference }))).toMatchObject({ code: "BAD_REQUEST", message: orderPageMessages.invalidReference });
    }
    const placed = await placeTestOrder(db, await createUser(db), [productIds[0]!]);
    expect((await trpcRefusal((await callerAs(db, null)).orders.byReference({ reference: placed.reference }))).code).toBe("UNAUTHORIZED");
  });
});

describe("orders.latest", () => {
  it("names the caller's newest order, and none for a new customer", async () => {
    const customer = await createUser(db);
    const caller = await callerAs(db, customer);
    expect(await caller.orders.latest()).toBeNull();
    await placeTestOrder(db, customer, [productIds[0]!]);
    const newest = await placeTestOrder(db, customer, [productIds[1]!]);
    expect(await caller.orders.latest()).toEqual({ reference: newest.reference });
  });
});
