import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { messages } from "@/lib/messages";
import { listObjectFiles } from "@/server/platform/adapters/local/local-storage";
import { scopedDb } from "@/server/db/as-caller";
import { placeOrderWithProof, placeOrderSql } from "@/server/checkout/place-order";
import { StorageError, type StoragePort } from "@/server/ports/storage";
import { UPLOAD_MESSAGES } from "@/server/storage/image-check";
import { UNSAFE_NAME_MESSAGE } from "@/server/storage/read-upload";
import { placeOrderInput } from "@/server/checkout/schemas";
import { settingsFromEnv } from "@/server/settings/defaults";
import { publicSettingsOf } from "@/server/settings/queries";
import { callerAs, testStorage, testStorageRoot, type Caller } from "../helpers/browser";
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

async function refusal(promise: Promise<unknown>) {
  return promise.then(
    () => "placed",
    (error: { code: string; message: string }) => `${error.code}: ${error.message}`,
  );
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

  it("gives a fresh reference and the bank details from the shop settings", async () => {
    const start = await caller.checkout.start();
    expect(start.reference).toMatch(/^ORD-\d{1,6}$/);
    // A new shop's settings are the environment's: here the demo account, which works outside production.
    expect(start).toMatchObject({ bankTransfer: "demo", bank: publicSettingsOf(settingsFromEnv()).bank });
  });

  it("places the order once, pending payment, with the right total, reference and proof, and empties the cart", async () => {
    const { reference } = await caller.checkout.start();
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
    const reference = randomReference();
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
    await caller.checkout.placeOrder(form({ proof: fileOf(makeJpeg(), "slip.jpeg", "image/jpeg") }));
    expect((await ordersOf(customer))[0]!.proof_path).toMatch(/_slip\.jpg$/);
  });

  describe("refuses bad uploads, changing nothing", () => {
    const polyglot = Buffer.concat([makePng(), Buffer.from("<script>alert(1)</script>")]);
    // A script hidden in a text chunk before IEND: structurally whole, still refused.
    const inline = makePng(4, 4, 128, [chunk("tEXt", Buffer.from("Comment\0<script>x()</script>", "latin1"))]);
    const cases: [string, File, string][] = [
      ["text renamed .png", fileOf("just some text, not an image", "proof.png", "text/plain"), UPLOAD_MESSAGES.not_an_image],
      ["a spoofed MIME type", fileOf("<html>hello</html>", "proof.png", "image/png"), UPLOAD_MESSAGES.not_an_image],
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
        upload: async () => {
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
      const input = placeOrderInput.parse(form({}));
      const deps = {
        db: scopedDb(db.kysely, customer.identity),
        storage: testStorage(db),
        userId: customer.id,
        placeOrder: async () => {
          throw new Error("connection lost");
        },
      };
      expect(await refusal(placeOrderWithProof(deps, input))).toBe(`INTERNAL_SERVER_ERROR: ${m.failed}`);
      expect(await ordersOf(customer)).toEqual([]);
      expect(await cartOf(customer)).toHaveLength(2);
      expect(await proofFilesOf(customer)).toEqual([]);
      const rows = await db.kysely.selectFrom("storage.objects").select("name").where("name", "like", `${customer.id}/%`).execute();
      expect(rows).toEqual([]);
      void placeOrderSql;
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

describe("cart", () => {
  it("increases, decreases (removing at 1) and removes, with the spec's messages", async () => {
    const customer = await createUser(db);
    const caller = await callerAs(db, customer);
    const [first, second] = productIds;
    await caller.cart.add({ productId: first! });
    await caller.cart.add({ productId: second! });
    const name = (await caller.cart.list()).lines[0]!.name;
    expect(await caller.cart.increase({ productId: first! })).toEqual({ message: messages.cart.quantityUpdated(name) });
    expect((await caller.cart.list()).lines[0]!.quantity).toBe(2);
    expect(await caller.cart.decrease({ productId: first! })).toEqual({ message: messages.cart.quantityUpdated(name) });
    expect(await caller.cart.decrease({ productId: first! })).toEqual({ message: messages.cart.removed });
    expect(await caller.cart.remove({ productId: second! })).toEqual({ message: messages.cart.removed });
    expect(await caller.cart.list()).toEqual({ lines: [], total: 0, count: 0 });
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
    await (await callerAs(db, a)).cart.add({ productId: productIds[0]! });
    const asB = await callerAs(db, b);
    expect((await asB.cart.list()).lines).toEqual([]);
    expect(await refusal(asB.cart.remove({ productId: productIds[0]! }))).toMatch(/^NOT_FOUND/);
    expect(await cartOf(a)).toHaveLength(1);
  });
});
