import { trpcRefusal } from "../helpers/attempt";
import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { messages } from "@/lib/messages";
import { listObjectFiles } from "@/server/platform/adapters/local/local-storage";
import { StorageError, type StoragePort } from "@/server/ports/storage";
import { UPLOAD_MESSAGES } from "@/server/storage/image-check";
import { UNSAFE_NAME_MESSAGE } from "@/server/storage/read-upload";
import { settingsFromEnv } from "@/server/settings/defaults";
import { publicSettingsOf } from "@/server/settings/settings-queries";
import { callerAs, TestBrowser, testStorage, testStorageRoot, type Caller } from "../helpers/browser";
import { createUser, freshDatabase, type TestDatabase, type TestUser } from "../helpers/database";
import { chunk, fileOf, makeJpeg, makePng } from "../helpers/images";
import { randomReference } from "../helpers/orders";

const m = messages.checkout;
let db: TestDatabase;
let productIds: string[];

beforeAll(async () => {
  db = await freshDatabase();
  productIds = (await db.kysely.selectFrom("products").select("id").orderBy("created_at").execute()).map((p) => p.id);
});

afterAll(async () => {
  await db?.close();
});

function form(parts: { proof?: File | null; reference?: string; idempotencyKey?: string }) {
  const data = new FormData();
  if (parts.proof !== null) data.set("proof", parts.proof ?? fileOf(makePng(), "proof.png"));
  data.set("reference", parts.reference ?? randomReference());
  data.set("idempotencyKey", parts.idempotencyKey ?? randomUUID());
  return data;
}

/** "CODE: message" of a refused call (the shared helper fails the test if it is not refused). */
async function refusal(promise: Promise<unknown>) {
  const error = await trpcRefusal(promise);
  return `${error.code}: ${error.message}`;
}

async function ordersOf(user: TestUser) {
  return db.kysely.selectFrom("orders").selectAll().where("user_id", "=", user.id).execute();
}

async function cartOf(user: TestUser) {
  return db.kysely.selectFrom("cart_items").select(["product_id", "quantity"]).where("user_id", "=", user.id).orderBy("added_at").execute();
}

async function proofFilesOf(user: TestUser) {
  return (await listObjectFiles(testStorageRoot(db))).filter((file) => file.startsWith(`payments/${user.id}/`));
}

describe("checkout", () => {
  let customer: TestUser;
  let caller: Caller;

  beforeEach(async () => {
    customer = await createUser(db, { fullName: "Themba Nkosi" });
    caller = await callerAs(db, customer);
    await caller.cart.add({ productId: productIds[0]! });
    await caller.cart.add({ productId: productIds[0]! });
    await caller.cart.add({ productId: productIds[1]! });
  });

  it("gives the customer's reserved reference and the bank details from the shop settings", async () => {
    const start = await caller.checkout.start();
    expect(start.reference).toMatch(/^ORD-\d{1,6}$/);
    // A new shop's settings are the environment's: here the demo account, which works outside production.
    expect(start).toMatchObject({ bankTransfer: "demo", bank: publicSettingsOf(settingsFromEnv()).bank });
  });

  it("places the order once, pending payment, with the right total, reference and proof, and empties the cart", async () => {
    const reference = (await caller.checkout.start()).reference!;
    const cart = await caller.cart.list();
    const result = await caller.checkout.placeOrder(form({ reference }));
    expect(result.message).toBe(m.success(reference));
    const [order, ...rest] = await ordersOf(customer);
    expect(rest).toEqual([]);
    expect(order).toMatchObject({ reference, status: "pending_payment", total: cart.total.toFixed(2), customer_name: "Themba Nkosi" });
    expect(order!.proof_path).toMatch(new RegExp(`^${customer.id}/\\d+_proof\\.png$`));
    expect(await proofFilesOf(customer)).toEqual([`payments/${order!.proof_path}`]);
    expect(await cartOf(customer)).toEqual([]);
  });

  it("makes one order for a retried or double-clicked payment (same idempotency key)", async () => {
    const key = randomUUID();
    const reference = (await caller.checkout.start()).reference!;
    const [first, second] = await Promise.all([
      caller.checkout.placeOrder(form({ idempotencyKey: key, reference })),
      caller.checkout.placeOrder(form({ idempotencyKey: key, reference })),
    ]);
    expect(second.orderId).toBe(first.orderId);
    const again = await caller.checkout.placeOrder(form({ idempotencyKey: key, reference }));
    expect(again.orderId).toBe(first.orderId);
    expect(await ordersOf(customer)).toHaveLength(1);
    expect(await proofFilesOf(customer)).toHaveLength(1);
  });

  it("asks for the proof of payment", async () => {
    expect(await refusal(caller.checkout.placeOrder(form({ proof: null })))).toBe(`BAD_REQUEST: ${m.proofRequired}`);
    expect(await refusal(caller.checkout.placeOrder(form({ proof: new File([], "") })))).toBe(`BAD_REQUEST: ${m.proofRequired}`);
    expect(await cartOf(customer)).toHaveLength(2);
  });

  it("refuses an empty cart", async () => {
    const empty = await createUser(db);
    expect(await refusal((await callerAs(db, empty)).checkout.placeOrder(form({})))).toBe(`BAD_REQUEST: ${m.cartEmptyOrSignedOut}`);
  });

  it("refuses visitors and admins", async () => {
    expect(await refusal((await callerAs(db, null)).checkout.placeOrder(form({})))).toMatch(/^UNAUTHORIZED/);
    const admin = await createUser(db, { role: "admin" });
    expect(await refusal((await callerAs(db, admin)).checkout.placeOrder(form({})))).toMatch(/^FORBIDDEN/);
  });

  it("accepts a JPEG proof too", async () => {
    const reference = (await caller.checkout.start()).reference!;
    await caller.checkout.placeOrder(form({ reference, proof: fileOf(makeJpeg(), "slip.jpeg", "image/jpeg") }));
    expect((await ordersOf(customer))[0]!.proof_path).toMatch(/_slip\.jpg$/);
  });

  describe("refuses bad uploads, changing nothing", () => {
    const polyglot = Buffer.concat([makePng(), Buffer.from("<script>alert(1)</script>")]);
    // A script hidden in a text chunk before IEND: structurally whole, still refused.
    const inline = makePng(4, 4, 128, [chunk("tEXt", Buffer.from("Comment\0<script>x()</script>", "latin1"))]);
    const cases: [string, File, string][] = [
      ["text renamed .png", fileOf("just some text, not an image", "proof.png", "text/plain"), UPLOAD_MESSAGES.not_a_proof],
      ["a spoofed MIME type", fileOf("<html>hello</html>", "proof.png", "image/png"), UPLOAD_MESSAGES.not_a_proof],
      ["an image/script polyglot", fileOf(polyglot, "proof.png"), UPLOAD_MESSAGES.unsafe_content],
      ["a script inside an image", fileOf(inline, "proof.png"), UPLOAD_MESSAGES.unsafe_content],
      ["6 MB", fileOf(Buffer.alloc(6 * 1024 * 1024, 1), "big.png"), UPLOAD_MESSAGES.too_large],
      ["0 bytes", fileOf(Buffer.alloc(0), "empty.png"), UPLOAD_MESSAGES.empty],
      ["a 50-megapixel PNG", fileOf(makePng(8000, 6250, 0), "huge.png"), UPLOAD_MESSAGES.too_many_pixels],
      ["../ in the name", fileOf(makePng(), "../../evil.png"), UNSAFE_NAME_MESSAGE],
    ];
    for (const [label, file, message] of cases) {
      it(label, async () => {
        expect(await refusal(caller.checkout.placeOrder(form({ proof: file })))).toBe(`BAD_REQUEST: ${message}`);
        expect(await ordersOf(customer)).toEqual([]);
        expect(await cartOf(customer)).toHaveLength(2);
        expect(await proofFilesOf(customer)).toEqual([]);
      });
    }
  });

  describe("faults", () => {
    it("a failing storage write: no order, no file, cart intact", async () => {
      const failing: StoragePort = {
        ...testStorage(db),
        put: async () => {
          throw new StorageError("disk full", "failed");
        },
      };
      const broken = await callerAs(db, customer, { storage: failing });
      expect(await refusal(broken.checkout.placeOrder(form({})))).toBe(`INTERNAL_SERVER_ERROR: ${m.failed}`);
      expect(await ordersOf(customer)).toEqual([]);
      expect(await cartOf(customer)).toHaveLength(2);
      expect(await proofFilesOf(customer)).toEqual([]);
    });

    it("the database failing after the upload: no order, the proof removed, cart intact", async () => {
      const reference = (await caller.checkout.start()).reference!;
      // The database itself fails as place_order() writes this customer's order: a trigger in this
      // test's database only, dropped again below. It fails only once the proof's row is written
      // (same transaction), so the fault comes after the upload; else the order goes through.
      await sql`
        create function public.test_failing_disk() returns trigger language plpgsql security definer set search_path = '' as $$
        begin
          if exists (select 1 from storage.objects where bucket_id = 'payments' and name = new.proof_path) then
            raise exception 'could not write to file' using errcode = 'io_error';
          end if;
          return new;
        end $$`.execute(db.kysely);
      await sql`
        create trigger test_failing_disk before insert on public.orders
        for each row when (new.user_id = ${sql.lit(customer.id)}::uuid) execute function public.test_failing_disk()`.execute(db.kysely);
      try {
        expect(await refusal(caller.checkout.placeOrder(form({ reference })))).toBe(`INTERNAL_SERVER_ERROR: ${m.failed}`);
      } finally {
        await sql`drop trigger test_failing_disk on public.orders`.execute(db.kysely);
        await sql`drop function public.test_failing_disk()`.execute(db.kysely);
      }
      expect(await ordersOf(customer)).toEqual([]);
      expect(await cartOf(customer)).toHaveLength(2);
      expect(await proofFilesOf(customer)).toEqual([]);
      const rows = await db.kysely.selectFrom("storage.objects").select("name").where("name", "like", `${customer.id}/%`).execute();
      expect(rows).toEqual([]);
    });

    it("a product going unavailable before payment: a clear message and nothing kept", async () => {
      const product = productIds[1]!;
      await db.kysely.updateTable("products").set({ available: false }).where("id", "=", product).execute();
      try {
        expect(await refusal(caller.checkout.placeOrder(form({})))).toBe(`BAD_REQUEST: ${m.itemsUnavailable}`);
      } finally {
        await db.kysely.updateTable("products").set({ available: true }).where("id", "=", product).execute();
      }
      expect(await ordersOf(customer)).toEqual([]);
      expect(await proofFilesOf(customer)).toEqual([]);
      expect(await cartOf(customer)).toHaveLength(2);
    });
  });
});

describe("one reference per checkout", () => {
  const password = "eft-reference-2026";

  async function reservationsOf(user: { id: string }) {
    return db.kysely.selectFrom("checkout_references").select("reference").where("user_id", "=", user.id).execute();
  }

  async function shopper() {
    const user = await createUser(db);
    const caller = await callerAs(db, user);
    await caller.cart.add({ productId: productIds[0]! });
    return { user, caller };
  }

  it("shows one reference on every load, in a second tab and after signing out and in; the order carries it; the next checkout gets another", async () => {
    const email = `eft-${randomUUID().slice(0, 8)}@example.test`;
    const browser = new TestBrowser(db);
    await browser.call((c) => c.auth.signUp({ fullName: "Sipho Dube", email, password, confirmPassword: password, acceptTerms: true }));
    await browser.call((c) => c.cart.add({ productId: productIds[0]! }));
    const start = () => browser.call((c) => c.checkout.start()).then((result) => result.reference);

    const loads = [await start(), await start(), await start()];
    const reference = loads[0]!;
    expect(reference).toMatch(/^ORD-\d{1,6}$/);
    expect(loads).toEqual([reference, reference, reference]);

    // Another tab or device: a session of its own for the same account.
    const otherTab = new TestBrowser(db);
    await otherTab.call((c) => c.auth.signIn({ email, password }));
    expect((await otherTab.call((c) => c.checkout.start())).reference).toBe(reference);

    await browser.call((c) => c.auth.signOut());
    await browser.call((c) => c.auth.signIn({ email, password }));
    expect(await start()).toBe(reference);

    const placed = await browser.call((c) => c.checkout.placeOrder(form({ reference })));
    expect(placed).toMatchObject({ reference, message: m.success(reference) });
    // What the customer and the owner see: purchase history and Order Management.
    expect((await browser.call((c) => c.orders.mine())).map((order) => order.reference)).toEqual([reference]);
    const admin = await callerAs(db, await createUser(db, { role: "admin" }));
    expect((await admin.adminOrders.list({ search: reference })).orders.map((order) => order.id)).toEqual([placed.orderId]);

    // The next checkout reserves a new reference, the same in every tab again.
    expect(await start()).toBeNull();
    await browser.call((c) => c.cart.add({ productId: productIds[1]! }));
    const next = await start();
    expect(next).toMatch(/^ORD-\d{1,6}$/);
    expect(next).not.toBe(reference);
    expect((await otherTab.call((c) => c.checkout.start())).reference).toBe(next);
  });

  it("50 parallel first loads of one customer's checkout reserve one reference", async () => {
    const { user, caller } = await shopper();
    // On PostgreSQL: open 50 connections first, so the calls overlap instead of waiting for the pool.
    await Promise.all(Array.from({ length: 50 }, () => sql`select pg_sleep(0.02)`.execute(db.kysely)));
    const starts = await Promise.all(Array.from({ length: 50 }, () => caller.checkout.start()));
    const references = new Set(starts.map((start) => start.reference));
    expect(references.size).toBe(1);
    const [reference] = references;
    expect(reference).toMatch(/^ORD-\d{1,6}$/);
    expect(await reservationsOf(user)).toEqual([{ reference }]);
  });

  it("an empty cart reserves nothing", async () => {
    const user = await createUser(db);
    expect((await (await callerAs(db, user)).checkout.start()).reference).toBeNull();
    expect(await reservationsOf(user)).toEqual([]);
  });

  describe("refuses a reference that is not the customer's open one, keeping the cart and the reservation and no proof", () => {
    async function expectStale(user: TestUser, caller: Caller, reference: string) {
      const before = { orders: await ordersOf(user), cart: await cartOf(user), reserved: await reservationsOf(user), proofs: await proofFilesOf(user) };
      expect(await refusal(caller.checkout.placeOrder(form({ reference })))).toBe(`CONFLICT: ${m.referenceStale}`);
      const after = { orders: await ordersOf(user), cart: await cartOf(user), reserved: await reservationsOf(user), proofs: await proofFilesOf(user) };
      expect(after).toEqual(before);
    }

    it("another customer's", async () => {
      const [me, them] = [await shopper(), await shopper()];
      await me.caller.checkout.start();
      const theirs = (await them.caller.checkout.start()).reference!;
      await expectStale(me.user, me.caller, theirs);
      expect(await reservationsOf(them.user)).toEqual([{ reference: theirs }]);
    });

    it("a made-up one", async () => {
      const { user, caller } = await shopper();
      await caller.checkout.start();
      await expectStale(user, caller, randomReference());
    });

    it("a stale one, used by an earlier order (a checkout page left open in another tab)", async () => {
      const { user, caller } = await shopper();
      const used = (await caller.checkout.start()).reference!;
      await caller.checkout.placeOrder(form({ reference: used }));
      await caller.cart.add({ productId: productIds[0]! });
      await expectStale(user, caller, used);
      await caller.checkout.start();
      await expectStale(user, caller, used);
    });
  });
});

describe("cart", () => {
  it("increases, decreases (removing at 1) and removes, with the spec's messages", async () => {
    const customer = await createUser(db);
    const caller = await callerAs(db, customer);
    const [first, second] = productIds;
    await caller.cart.add({ productId: first! });
    await caller.cart.add({ productId: second! });
    // By product, not by position: two adds in one tick of the clock share their added_at.
    const lineOf = async (productId: string) => (await caller.cart.list()).lines.find((line) => line.productId === productId)!;
    const name = (await lineOf(first!)).name;
    const firstLine = (await lineOf(first!)).id;
    expect(await caller.cart.increase({ lineId: firstLine })).toEqual({ message: messages.cart.quantityUpdated(name) });
    expect((await lineOf(first!)).quantity).toBe(2);
    expect(await caller.cart.decrease({ lineId: firstLine })).toEqual({ message: messages.cart.quantityUpdated(name) });
    expect(await caller.cart.decrease({ lineId: firstLine })).toEqual({ message: messages.cart.removed });
    expect(await caller.cart.remove({ lineId: (await lineOf(second!)).id })).toEqual({ message: messages.cart.removed });
    expect(await caller.cart.list()).toEqual({ lines: [], total: 0, count: 0, dueNow: null, later: null });
  });

  it("computes line totals and the total from current prices", async () => {
    const customer = await createUser(db);
    const caller = await callerAs(db, customer);
    await caller.cart.add({ productId: productIds[2]! });
    await caller.cart.add({ productId: productIds[2]! });
    await caller.cart.add({ productId: productIds[3]! });
    const cart = await caller.cart.list();
    const expected = cart.lines.reduce((sum, line) => sum + Math.round(line.price * 100) * line.quantity, 0) / 100;
    expect(cart.total).toBe(expected);
    expect(cart.count).toBe(3);
  });

  it("never shows or changes another customer's cart", async () => {
    const a = await createUser(db);
    const b = await createUser(db);
    const asA = await callerAs(db, a);
    await asA.cart.add({ productId: productIds[0]! });
    const asB = await callerAs(db, b);
    expect((await asB.cart.list()).lines).toEqual([]);
    const [lineOfA] = (await asA.cart.list()).lines;
    expect(await refusal(asB.cart.remove({ lineId: lineOfA!.id }))).toMatch(/^NOT_FOUND/);
    expect(await cartOf(a)).toHaveLength(1);
  });
});
