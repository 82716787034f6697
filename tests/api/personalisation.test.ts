import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { messages } from "@/lib/messages";
import { runAs } from "@/server/db/as-caller";
import { PDF_REFUSAL_MESSAGES } from "@/server/storage/upload-messages";
import { trpcRefusal } from "../helpers/attempt";
import { callerAs, type Caller } from "../helpers/browser";
import { createUser, freshDatabase, type TestDatabase, type TestUser } from "../helpers/database";
import { fileOf, makePng } from "../helpers/images";
import { makeProofPdf } from "../helpers/pdfs";

/**
 * Personalisation per line (issue 37, item 2): what a product asks of the customer (text, a logo),
 * carried from the cart to the order line, the invoice and the admin's screens, private to the
 * customer and admins.
 */
let db: TestDatabase;
let admin: Caller;
let productId: string;
let nameField: string;
let logoField: string;

beforeAll(async () => {
  db = await freshDatabase();
  admin = await callerAs(db, await createUser(db, { role: "admin" }));
  const categoryId = (await db.kysely.selectFrom("categories").select("id").limit(1).executeTakeFirstOrThrow()).id;
  productId = (
    await db.kysely.insertInto("products").values({ name: "Branded golf shirt", price: "200.00", category_id: categoryId, image_path: "/x.svg" }).returning("id").executeTakeFirstOrThrow()
  ).id;
  expect(
    await admin.adminProducts.savePersonalisation({
      productId,
      fields: [
        { label: "Name on the shirt", kind: "text", required: true, maxLength: 12, price: "25.00" },
        { label: "Logo", kind: "file", required: false, maxLength: null, price: "50" },
      ],
    }),
  ).toEqual({ message: messages.admin.variants.personalisationSaved("Branded golf shirt") });
  const fields = (await admin.adminProducts.variants({ id: productId })).personalisation;
  nameField = fields[0]!.id;
  logoField = fields[1]!.id;
});

afterAll(async () => {
  await db?.close();
});

function fileForm(file: File) {
  const form = new FormData();
  form.set("file", file);
  return form;
}

async function customer(): Promise<{ user: TestUser; caller: Caller }> {
  const user = await createUser(db);
  return { user, caller: await callerAs(db, user) };
}

describe("personalisation in the cart", () => {
  it("the product page reads the fields; a filled-in line costs the add-ons more, and other text makes another line", async () => {
    const product = await (await callerAs(db, null)).catalogue.byId({ id: productId });
    expect(product.personalisation).toEqual([
      { id: nameField, label: "Name on the shirt", kind: "text", required: true, maxLength: 12, price: 25 },
      { id: logoField, label: "Logo", kind: "file", required: false, maxLength: null, price: 50 },
    ]);
    const { caller } = await customer();
    const { path, fileName } = await caller.cart.uploadFile(fileForm(fileOf(makePng(64, 32), "our logo.png")));
    expect(fileName).toMatch(/\.png$/);
    await caller.cart.add({ productId, personalisation: { [nameField]: "  Thabo ", [logoField]: path } });
    await caller.cart.add({ productId, personalisation: { [nameField]: "Thabo", [logoField]: path } });
    await caller.cart.add({ productId, personalisation: { [nameField]: "Lerato", [logoField]: "" } });
    const cart = await caller.cart.list();
    expect(cart.lines.map((line) => [line.quantity, line.price, line.personalisation.map((entry) => `${entry.label}=${entry.value}`)])).toEqual([
      [2, 275, ["Name on the shirt=Thabo", `Logo=${fileName}`]],
      [1, 225, ["Name on the shirt=Lerato"]],
    ]);
    expect(cart.lines[0]!.personalisation[1]!.url).toMatch(/^\/files\/personalisation\//);
    expect(cart.total).toBe(775);
  });

  it("refuses what the product does not ask for, with a clear message, adding nothing", async () => {
    const { user, caller } = await customer();
    const other = await customer();
    const theirs = (await other.caller.cart.uploadFile(fileForm(fileOf(makePng(), "theirs.png")))).path;
    const cases: [Record<string, string> | undefined, string][] = [
      [undefined, messages.cart.personalisationRequired("Name on the shirt")],
      [{ [nameField]: "A name far too long" }, messages.cart.personalisationTooLong("Name on the shirt")],
      [{ [nameField]: "Sipho", [randomUUID()]: "x" }, messages.cart.personalisationInvalid],
      [{ [nameField]: "Sipho", [logoField]: theirs }, messages.cart.personalisationInvalid],
      [{ [nameField]: "Sipho", [logoField]: `${user.id}/nothing-here.png` }, messages.cart.personalisationInvalid],
    ];
    for (const [personalisation, message] of cases) {
      const error = await trpcRefusal(caller.cart.add({ productId, personalisation }));
      expect({ code: error.code, message: error.message }).toEqual({ code: "BAD_REQUEST", message });
    }
    expect((await caller.cart.list()).lines).toEqual([]);
  });

  it("takes a logo as PNG, JPEG, WebP or PDF, checked by content; refuses SVG, GIF and a PDF with JavaScript", async () => {
    const { caller } = await customer();
    expect((await caller.cart.uploadFile(fileForm(fileOf(makeProofPdf(), "logo.pdf")))).fileName).toMatch(/\.pdf$/);
    const svg = new File(['<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'], "logo.svg", { type: "image/svg+xml" });
    expect((await trpcRefusal(caller.cart.uploadFile(fileForm(svg)))).message).toBe(messages.upload.not_a_logo);
    const gif = new File([Buffer.from("474946383961010001000000002c00000000010001000002003b", "hex")], "logo.gif", { type: "image/gif" });
    expect((await trpcRefusal(caller.cart.uploadFile(fileForm(gif)))).message).toBe(messages.upload.not_a_logo);
    const scripted = makeProofPdf({ catalog: "/Names << /JavaScript 7 0 R >>", extra: () => ["<< /Names [(init) 8 0 R] >>", "<< /S /JavaScript /JS (app.alert\\(1\\)) >>"] });
    expect((await trpcRefusal(caller.cart.uploadFile(fileForm(fileOf(scripted, "logo.pdf"))))).message).toBe(PDF_REFUSAL_MESSAGES.active_content);
    const huge = new File([new Uint8Array(10 * 1024 * 1024 + 1)], "big.png", { type: "image/png" });
    expect((await trpcRefusal(caller.cart.uploadFile(fileForm(huge)))).message).toBe(messages.upload.logo_too_large);
    const visitor = await callerAs(db, null);
    expect((await trpcRefusal(visitor.cart.uploadFile(fileForm(fileOf(makePng(), "logo.png"))))).code).toBe("UNAUTHORIZED");
  });
});

describe("personalisation on the order", () => {
  it("keeps the text and the file on the order line, shows them to the customer and admins, prints the text on the invoice, and keeps the file private", async () => {
    const { user, caller } = await customer();
    const { path } = await caller.cart.uploadFile(fileForm(fileOf(makePng(40, 40), "crest.png")));
    await caller.cart.add({ productId, personalisation: { [nameField]: "Naledi", [logoField]: path } });
    const { reference } = await caller.checkout.start();
    const form = new FormData();
    form.set("proof", fileOf(makePng(), "proof.png"));
    form.set("reference", reference!);
    form.set("idempotencyKey", randomUUID());
    const { orderId } = await caller.checkout.placeOrder(form);

    const line = await db.kysely.selectFrom("order_items").select(["unit_price", "personalisation"]).where("order_id", "=", orderId).executeTakeFirstOrThrow();
    expect(line.unit_price).toBe("275.00");
    expect(line.personalisation).toEqual([
      { label: "Name on the shirt", kind: "text", value: "Naledi", price: 25 },
      { label: "Logo", kind: "file", value: path, price: 50 },
    ]);

    // The owner changes the fields later: the order keeps what was sold.
    await admin.adminProducts.savePersonalisation({ productId, fields: [{ id: nameField, label: "Name", kind: "text", required: true, maxLength: 12, price: "30" }, { id: logoField, label: "Logo", kind: "file", required: false, maxLength: null, price: "50" }] });
    const mine = await caller.orders.byReference({ reference: reference! });
    expect(mine.items[0]!.personalisation.map((entry) => [entry.label, entry.value])).toEqual([
      ["Name on the shirt", "Naledi"],
      ["Logo", "crest.png"],
    ]);
    await admin.adminProducts.savePersonalisation({ productId, fields: [{ id: nameField, label: "Name on the shirt", kind: "text", required: true, maxLength: 12, price: "25" }, { id: logoField, label: "Logo", kind: "file", required: false, maxLength: null, price: "50" }] });

    const listed = await admin.adminOrders.list({ search: reference! });
    expect(listed.orders[0]!.items[0]!.personalisation.map((entry) => entry.value)).toEqual(["Naledi", "crest.png"]);

    await admin.adminOrders.updateStatus({ id: orderId, status: "pending_delivery" });
    const invoice = await db.kysely.selectFrom("invoices").select("snapshot").where("order_id", "=", orderId).executeTakeFirstOrThrow();
    expect(JSON.stringify(invoice.snapshot)).toContain("Branded golf shirt (Name on the shirt: Naledi; Logo: crest.png)");

    // The file: the customer and admins may read it, nobody else.
    const seen = async (who: TestUser | null) =>
      (await runAs(db.kysely, who ? who.identity : { kind: "anon" }, (trx) => trx.selectFrom("storage.objects").select("name").where("bucket_id", "=", "personalisation").where("name", "=", path).execute())).length;
    expect(await seen(user)).toBe(1);
    expect(await seen((await customer()).user)).toBe(0);
    expect(await seen(null)).toBe(0);
    const adminUser = await createUser(db, { role: "admin" });
    expect(await seen(adminUser)).toBe(1);

    // Part of the customer's data export.
    const exported = JSON.stringify(await caller.profile.exportData());
    expect(exported).toContain("Naledi");
    expect(exported).toContain(path);
  });

  it("refuses a checkout whose line no longer fits the product's fields, naming it, and changes nothing", async () => {
    const { user, caller } = await customer();
    await caller.cart.add({ productId, personalisation: { [nameField]: "Zanele" } });
    const spare = (await admin.adminProducts.variants({ id: productId })).personalisation;
    await admin.adminProducts.savePersonalisation({
      productId,
      fields: [...spare.map((field) => ({ ...field, price: field.price })), { label: "Department", kind: "text", required: true, maxLength: 20, price: "" }],
    });
    const { reference } = await caller.checkout.start();
    const form = new FormData();
    form.set("proof", fileOf(makePng(), "proof.png"));
    form.set("reference", reference!);
    form.set("idempotencyKey", randomUUID());
    const error = await trpcRefusal(caller.checkout.placeOrder(form));
    expect({ code: error.code, message: error.message }).toEqual({ code: "CONFLICT", message: messages.checkout.personalisationStale("Branded golf shirt") });
    expect(await db.kysely.selectFrom("orders").select("id").where("user_id", "=", user.id).execute()).toEqual([]);
    expect((await caller.cart.list()).lines).toHaveLength(1);
    await admin.adminProducts.savePersonalisation({ productId, fields: spare.map((field) => ({ ...field, price: field.price })) });
  });

  it("lists a file no line names a week after its upload, for the retention job to remove, and never one a line names", async () => {
    const { caller } = await customer();
    const kept = (await caller.cart.uploadFile(fileForm(fileOf(makePng(), "kept.png")))).path;
    const dropped = (await caller.cart.uploadFile(fileForm(fileOf(makePng(), "dropped.png")))).path;
    await caller.cart.add({ productId, personalisation: { [nameField]: "Kept", [logoField]: kept } });
    await db.kysely.updateTable("storage.objects").set({ created_at: sql`now() - interval '8 days'` }).where("name", "in", [kept, dropped]).execute();
    const { rows } = await sql<{ path: string }>`select path from public.unused_personalisation_files()`.execute(db.kysely);
    const paths = rows.map((row) => row.path);
    expect(paths).toContain(dropped);
    expect(paths).not.toContain(kept);
  });
});
