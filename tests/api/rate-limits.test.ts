import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHECKOUT_LIMIT, CONTACT_LIMIT, SIGN_UP_LIMIT } from "@/lib/constants";
import { messages } from "@/lib/messages";
import type { RequestLimits } from "@/server/security/rate-limit";
import { callerAs, freshRequestLimits, TestBrowser } from "../helpers/browser";
import { createUser, freshDatabase, type TestDatabase } from "../helpers/database";
import { fileOf, makePng } from "../helpers/images";
import { randomReference } from "../helpers/orders";
import { trpcRefusal } from "../helpers/attempt";

let db: TestDatabase;
beforeAll(async () => {
  db = await freshDatabase();
});
afterAll(async () => {
  await db.close();
});

async function count(table: "auth.users" | "contact_messages" | "orders"): Promise<number> {
  const row = await db.kysely.selectFrom(table).select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow();
  return Number(row.n);
}

function signUpValues() {
  const email = `limit-${randomUUID().slice(0, 8)}@example.test`;
  return { fullName: "Sipho Limit", email, password: "braai-2026", confirmPassword: "braai-2026", acceptTerms: true };
}

describe("rate limits", () => {
  it(`sign-up: ${SIGN_UP_LIMIT.attempts} per address per hour, then a clear refusal that creates nobody`, async () => {
    const limits = freshRequestLimits();
    const from = (address: string) => new TestBrowser(db, { address, requestLimits: limits });
    // A refused form (bad input) does not count.
    await expect(from("198.51.100.1").call((api) => api.auth.signUp({ ...signUpValues(), confirmPassword: "other" }))).rejects.toThrow();
    for (let i = 0; i < SIGN_UP_LIMIT.attempts; i++) {
      await from("198.51.100.1").call((api) => api.auth.signUp(signUpValues()));
    }
    const users = await count("auth.users");
    const refused = await trpcRefusal(from("198.51.100.1").call((api) => api.auth.signUp(signUpValues())));
    expect(refused.code).toBe("TOO_MANY_REQUESTS");
    expect(refused.message).toBe(messages.security.slowDown(60));
    expect(await count("auth.users")).toBe(users);
    // Another address is not held back.
    await from("198.51.100.2").call((api) => api.auth.signUp(signUpValues()));
    expect(await count("auth.users")).toBe(users + 1);
  }, 60_000);

  it(`contact form: ${CONTACT_LIMIT.attempts} messages per address per hour`, async () => {
    const limits = freshRequestLimits();
    const from = (address: string) => new TestBrowser(db, { address, requestLimits: limits });
    const message = { name: "Nomsa", email: "nomsa@example.test", phone: "", message: "Do you clean carpets in Soweto?" };
    for (let i = 0; i < CONTACT_LIMIT.attempts; i++) await from("198.51.100.7").call((api) => api.contact.send(message));
    const stored = await count("contact_messages");
    const refused = await trpcRefusal(from("198.51.100.7").call((api) => api.contact.send(message)));
    expect(refused.code).toBe("TOO_MANY_REQUESTS");
    expect(refused.message).toBe(messages.security.slowDown(60));
    expect(await count("contact_messages")).toBe(stored);
    await from("198.51.100.8").call((api) => api.contact.send(message));
    expect(await count("contact_messages")).toBe(stored + 1);
  });

  it(`checkout: ${CHECKOUT_LIMIT.attempts} attempts per customer per 15 minutes, failed ones included`, async () => {
    const limits: RequestLimits = freshRequestLimits();
    const [greedy, other] = [await createUser(db), await createUser(db)];
    const order = () => {
      const form = new FormData();
      form.set("proof", fileOf(makePng(), "proof.png"));
      form.set("reference", randomReference());
      form.set("idempotencyKey", randomUUID());
      return form;
    };
    const as = (user: typeof greedy) => callerAs(db, user, { limits });
    // An empty cart fails after the limit has counted the attempt.
    for (let i = 0; i < CHECKOUT_LIMIT.attempts; i++) {
      expect((await trpcRefusal((await as(greedy)).checkout.placeOrder(order()))).message).toBe(messages.checkout.cartEmptyOrSignedOut);
    }
    const orders = await count("orders");
    const refused = await trpcRefusal((await as(greedy)).checkout.placeOrder(order()));
    expect(refused.code).toBe("TOO_MANY_REQUESTS");
    expect(refused.message).toBe(messages.security.slowDown(15));
    expect(await count("orders")).toBe(orders);
    expect((await trpcRefusal((await as(other)).checkout.placeOrder(order()))).message).toBe(messages.checkout.cartEmptyOrSignedOut);
  });
});
