/**
 * Quotes through the API (issue 39, docs/quotes.md): asking with files, pricing and sending
 * (numbered, frozen), deciding. Accepting makes exactly one order at the quoted prices however
 * many calls race for it; an expired, declined or superseded version is refused with nothing
 * changed; a catalogue price change after sending touches neither the quote nor its order;
 * another customer can neither read nor accept; the files are private.
 */
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { shopDay } from "@/lib/days";
import { quoteMessages } from "@/lib/messages";
import { mayHear } from "@/server/platform/adapters/local/local-live";
import { serveStoredFile } from "@/server/storage/serve-file";
import { trpcRefusal } from "../helpers/attempt";
import { pdfText } from "../helpers/pdf-text";
import { callerAs, contextAs, type Caller } from "../helpers/browser";
import { createUser, freshDatabase, type TestDatabase, type TestUser } from "../helpers/database";
import { fileOf, makePng } from "../helpers/images";
import { QUOTE_REQUEST_LIMIT } from "@/lib/constants";

let db: TestDatabase;
let admin: TestUser;
let buyer: TestUser;
let stranger: TestUser;
let asAdmin: Caller;
let asBuyer: Caller;
let asStranger: Caller;
let shirt: { productId: string; variantId: string };

beforeAll(async () => {
  db = await freshDatabase();
  admin = await createUser(db, { role: "admin", fullName: "Shop Owner" });
  buyer = await createUser(db, { fullName: "Thandi Mokoena" });
  stranger = await createUser(db, { fullName: "Someone Else" });
  [asAdmin, asBuyer, asStranger] = await Promise.all([callerAs(db, admin), callerAs(db, buyer), callerAs(db, stranger)]);
  const category = (await db.kysely.selectFrom("categories").select("id").limit(1).executeTakeFirstOrThrow()).id;
  const product = await db.kysely
    .insertInto("products")
    .values({ name: "Branded golf shirt", price: "180.00", category_id: category, image_path: null })
    .returning("id")
    .executeTakeFirstOrThrow();
  const variant = await db.kysely.selectFrom("product_variants").select("id").where("product_id", "=", product.id).executeTakeFirstOrThrow();
  shirt = { productId: product.id, variantId: variant.id };
});

afterAll(async () => {
  await db?.close();
});

/** 120 shirts at R150 (list price R180) and a R450 set-up line, valid for 30 days: R18,450. */
function draft(requestId: string, extra: { validUntil?: string; setUp?: string } = {}) {
  return {
    requestId,
    validUntil: extra.validUntil ?? shopDay(30),
    terms: "50% on order.",
    note: "Thanks for asking.",
    lines: [
      { kind: "catalogue" as const, variantId: shirt.variantId, quantity: 120, unitPrice: "150" },
      { kind: "custom" as const, description: "Embroidery set-up", quantity: 1, unitPrice: extra.setUp ?? "450" },
    ],
  };
}

async function sentQuote(customer: Caller = asBuyer): Promise<{ requestId: string; quoteId: string; number: string }> {
  const { requestId } = await customer.quotes.request({ description: "120 branded shirts", items: [{ variantId: shirt.variantId, quantity: 120 }] });
  const { quoteId } = await asAdmin.adminQuotes.saveDraft(draft(requestId));
  const { number } = await asAdmin.adminQuotes.send({ quoteId });
  return { requestId, quoteId, number };
}

/** Everything a refused decision must leave as it was. */
async function fingerprint() {
  const quotes = await db.kysely.selectFrom("quotes").selectAll().orderBy("id").execute();
  const requests = await db.kysely.selectFrom("quote_requests").selectAll().orderBy("id").execute();
  const orders = await db.kysely.selectFrom("orders").select(["id", "status", "total"]).orderBy("id").execute();
  const stock = await db.kysely.selectFrom("product_variants").select(["id", "stock"]).orderBy("id").execute();
  return JSON.stringify({ quotes, requests, orders, stock });
}

async function ordersOf(quoteId: string) {
  return db.kysely.selectFrom("orders").selectAll().where("quote_id", "=", quoteId).execute();
}

describe("asking", () => {
  it("a customer asks with a file; it is in their list and the inbox, the shop is mailed, and the file is theirs and the admins' only", async () => {
    const form = new FormData();
    form.set("file", fileOf(makePng(16, 16), "logo.png"));
    const file = await asBuyer.quotes.uploadFile(form);
    const asked = await asBuyer.quotes.request({
      description: "120 branded shirts with our logo",
      items: [{ variantId: shirt.variantId, quantity: 120 }],
      preferredDate: shopDay(14),
      company: "Mokoena Builders",
      vatNumber: "4 123 456 789",
      files: [file],
    });
    expect(asked.message).toBe(quoteMessages.requested);
    const mine = await asBuyer.quotes.mine();
    expect(mine.find((request) => request.id === asked.requestId)).toMatchObject({ state: "requested", number: null });
    expect((await asAdmin.adminQuotes.inbox()).some((request) => request.id === asked.requestId)).toBe(true);
    expect(await asStranger.quotes.mine()).toEqual([]);
    const mail = await db.kysely.selectFrom("mail_outbox").select(["template", "data"]).where("template", "=", "quote_requested").executeTakeFirstOrThrow();
    expect(mail.data).toMatchObject({ requestId: asked.requestId, company: "Mokoena Builders", fileCount: 1 });

    const request = await asBuyer.quotes.byId({ requestId: asked.requestId });
    expect(request).toMatchObject({ vatNumber: "4123456789", items: [{ name: "Branded golf shirt", quantity: 120 }] });
    expect(request.files).toHaveLength(1);

    const status = async (user: TestUser | null) => (await serveStoredFile(await contextAs(db, user), "personalisation", file.path.split("/"))).status;
    expect({ visitor: await status(null), owner: await status(buyer), stranger: await status(stranger), admin: await status(admin) }).toEqual({
      visitor: 404,
      owner: 200,
      stranger: 404,
      admin: 200,
    });
    // And it is in the customer's "Download my data".
    const exported = await asBuyer.profile.exportData();
    expect(exported.quoteRequests.find((each) => each.description === "120 branded shirts with our logo")).toMatchObject({ company: "Mokoena Builders", items: [{ quantity: 120 }] });
  });

  it("the live notice of a request reaches admins and its customer, nobody else", () => {
    const event = { table: "quote_requests", op: "INSERT", id: "00000000-0000-4000-8000-000000000001", userId: buyer.id } as const;
    expect(mayHear({ id: admin.id, role: "admin" }, event)).toBe(true);
    expect(mayHear({ id: buyer.id, role: "user" }, event)).toBe(true);
    expect(mayHear({ id: stranger.id, role: "user" }, event)).toBe(false);
  });

  it("another customer cannot name someone else's file in their request", async () => {
    const form = new FormData();
    form.set("file", fileOf(makePng(8, 8), "plan.png"));
    const file = await asBuyer.quotes.uploadFile(form);
    const refused = await trpcRefusal(asStranger.quotes.request({ description: "Mine now", files: [file] }));
    expect(refused).toMatchObject({ code: "BAD_REQUEST", message: quoteMessages.filesInvalid });
  });

  it("a customer's requests are limited (each mails the shop): past QUOTE_REQUEST_LIMIT in its window, refused and nothing written", async () => {
    const asker = await callerAs(db, await createUser(db, { fullName: "Busy Asker" }));
    for (let i = 0; i < QUOTE_REQUEST_LIMIT.attempts; i++) await asker.quotes.request({ description: `Request ${i}` });
    const before = await db.kysely.selectFrom("mail_outbox").select(db.kysely.fn.countAll<string>().as("n")).executeTakeFirstOrThrow();
    const refused = await trpcRefusal(asker.quotes.request({ description: "One more" }));
    expect(refused.code).toBe("TOO_MANY_REQUESTS");
    expect((await asker.quotes.mine()).length).toBe(QUOTE_REQUEST_LIMIT.attempts);
    expect(await db.kysely.selectFrom("mail_outbox").select(db.kysely.fn.countAll<string>().as("n")).executeTakeFirstOrThrow()).toEqual(before);
  });

  it("a request with no description is refused with the form's message", async () => {
    const refused = await trpcRefusal(asBuyer.quotes.request({ description: "   " }));
    expect(refused.message).toContain(quoteMessages.descriptionRequired);
  });
});

describe("pricing", () => {
  it("a draft is the admins' alone; sending numbers it (gap-free) and freezes it; the customer is mailed a link", async () => {
    const { requestId } = await asBuyer.quotes.request({ description: "Shirts" });
    const { quoteId } = await asAdmin.adminQuotes.saveDraft(draft(requestId));
    expect((await asBuyer.quotes.byId({ requestId })).versions).toEqual([]);
    expect((await asAdmin.adminQuotes.get({ requestId })).versions[0]).toMatchObject({ state: "draft", total: 18450 });

    const before = await db.kysely.selectFrom("quote_counters").select("last_number").executeTakeFirstOrThrow();
    const sent = await asAdmin.adminQuotes.send({ quoteId });
    expect(sent.number).toBe(`Q-${String(Number(before.last_number) + 1).padStart(6, "0")}`);
    const seen = await asBuyer.quotes.byId({ requestId });
    expect(seen.number).toBe(sent.number);
    expect(seen.versions[0]).toMatchObject({ version: 1, state: "sent", total: 18450, terms: "50% on order." });
    expect(seen.versions[0]!.lines.map((line) => [line.description, line.quantity, line.unitPrice])).toEqual([
      ["Branded golf shirt", 120, 150],
      ["Embroidery set-up", 1, 450],
    ]);
    const mail = await db.kysely.selectFrom("mail_outbox").select("data").where("template", "=", "quote_sent").where("recipient", "=", buyer.email).orderBy("created_at", "desc").executeTakeFirstOrThrow();
    expect(mail.data).toMatchObject({ requestId, number: sent.number, version: 1 });

    // Frozen: not even the table's owner changes a sent version's lines or prices.
    await expect(sql`update public.quote_lines set unit_price = 1 where quote_id = ${quoteId}::uuid`.execute(db.kysely)).rejects.toThrow(/quote_frozen/);
    await expect(sql`update public.quotes set total = 1 where id = ${quoteId}::uuid`.execute(db.kysely)).rejects.toThrow(/quote_frozen/);
    expect((await trpcRefusal(asAdmin.adminQuotes.send({ quoteId }))).code).toBe("CONFLICT");
  });

  it("customers cannot price or send", async () => {
    const { requestId } = await asBuyer.quotes.request({ description: "Shirts" });
    await expect(asBuyer.adminQuotes.saveDraft(draft(requestId))).rejects.toMatchObject({ code: "FORBIDDEN" });
  });
});

describe("accepting", () => {
  it("20 accepts at once make exactly one order, at the quoted prices, with the purchase-order number", async () => {
    const { quoteId } = await sentQuote();
    const results = await Promise.allSettled(Array.from({ length: 20 }, () => asBuyer.quotes.accept({ quoteId, purchaseOrder: "PO-7781" })));
    const references = new Set(results.map((result) => (result.status === "fulfilled" ? result.value.reference : String(result.reason))));
    expect(references.size).toBe(1);
    const orders = await ordersOf(quoteId);
    expect(orders).toHaveLength(1);
    expect(orders[0]).toMatchObject({ total: "18450.00", status: "pending_payment", purchase_order: "PO-7781", user_id: buyer.id, proof_path: null });
    const items = await db.kysely.selectFrom("order_items").select(["product_name", "unit_price", "quantity", "product_id"]).where("order_id", "=", orders[0]!.id).execute();
    expect(items.map((item) => [item.product_name, item.unit_price, item.quantity])).toEqual(
      expect.arrayContaining([
        ["Branded golf shirt", "150.00", 120],
        ["Embroidery set-up", "450.00", 1],
      ]),
    );
    // And once more, later: the same order.
    expect((await asBuyer.quotes.accept({ quoteId, purchaseOrder: "" })).reference).toBe(orders[0]!.reference);
    expect(await ordersOf(quoteId)).toHaveLength(1);
  });

  it("after its validity date: refused, nothing changed; it reads as expired", async () => {
    const { quoteId, requestId } = await sentQuote();
    // The clock moves past the date (the freeze guards against everyone else).
    await sql`alter table public.quotes disable trigger quotes_frozen`.execute(db.kysely);
    await sql`update public.quotes set valid_until = (now() at time zone 'Africa/Johannesburg')::date - 1 where id = ${quoteId}::uuid`.execute(db.kysely);
    await sql`alter table public.quotes enable trigger quotes_frozen`.execute(db.kysely);
    const before = await fingerprint();
    const refused = await trpcRefusal(asBuyer.quotes.accept({ quoteId, purchaseOrder: "" }));
    expect(refused).toMatchObject({ code: "CONFLICT", message: quoteMessages.expired });
    expect(await fingerprint()).toBe(before);
    expect((await asBuyer.quotes.byId({ requestId })).versions[0]!.state).toBe("expired");
  });

  it("after declining: refused, nothing changed", async () => {
    const { quoteId, requestId } = await sentQuote();
    await asBuyer.quotes.decline({ quoteId, reason: "Found it cheaper." });
    expect((await asBuyer.quotes.byId({ requestId })).versions[0]).toMatchObject({ state: "declined", declineReason: "Found it cheaper." });
    const before = await fingerprint();
    expect(await trpcRefusal(asBuyer.quotes.accept({ quoteId, purchaseOrder: "" }))).toMatchObject({ code: "CONFLICT", message: quoteMessages.declinedAlready });
    expect(await fingerprint()).toBe(before);
  });

  it("after a revision: the old version is refused, nothing changed; the revision is accepted", async () => {
    const { quoteId, requestId, number } = await sentQuote();
    await asBuyer.quotes.askChange({ quoteId, message: "Navy instead of black, please." });
    expect((await asAdmin.adminQuotes.get({ requestId })).changeAsked).toBe(true);
    expect(await db.kysely.selectFrom("mail_outbox").select("id").where("template", "=", "quote_change_asked").execute()).not.toHaveLength(0);
    const { quoteId: revisedId } = await asAdmin.adminQuotes.saveDraft(draft(requestId, { setUp: "300" }));
    const revised = await asAdmin.adminQuotes.send({ quoteId: revisedId });
    expect(revised.number).toBe(number);
    const seen = await asBuyer.quotes.byId({ requestId });
    expect(seen.versions.map((v) => [v.version, v.state])).toEqual([
      [2, "sent"],
      [1, "superseded"],
    ]);
    const before = await fingerprint();
    expect(await trpcRefusal(asBuyer.quotes.accept({ quoteId, purchaseOrder: "" }))).toMatchObject({ code: "CONFLICT", message: quoteMessages.superseded });
    expect(await fingerprint()).toBe(before);
    const accepted = await asBuyer.quotes.accept({ quoteId: revisedId, purchaseOrder: "" });
    expect((await ordersOf(revisedId))[0]).toMatchObject({ reference: accepted.reference, total: "18300.00" });
    // Closed: no further version can be priced.
    expect(await trpcRefusal(asAdmin.adminQuotes.saveDraft(draft(requestId)))).toMatchObject({ code: "CONFLICT", message: quoteMessages.closed });
  });

  it("a catalogue price change after sending leaves the quote and its order at the quoted price", async () => {
    const { quoteId, requestId } = await sentQuote();
    await db.kysely.updateTable("products").set({ price: "999.00" }).where("id", "=", shirt.productId).execute();
    await db.kysely.updateTable("product_variants").set({ price: "999.00" }).where("id", "=", shirt.variantId).execute();
    expect((await asBuyer.quotes.byId({ requestId })).versions[0]!.lines[0]!.unitPrice).toBe(150);
    await asBuyer.quotes.accept({ quoteId, purchaseOrder: "" });
    const order = (await ordersOf(quoteId))[0]!;
    expect(order.total).toBe("18450.00");
    const line = await db.kysely.selectFrom("order_items").select("unit_price").where("order_id", "=", order.id).where("variant_id", "=", shirt.variantId).executeTakeFirstOrThrow();
    expect(line.unit_price).toBe("150.00");
    await db.kysely.updateTable("product_variants").set({ price: null }).where("id", "=", shirt.variantId).execute();
    await db.kysely.updateTable("products").set({ price: "180.00" }).where("id", "=", shirt.productId).execute();
  });

  it("another customer can neither read nor accept, decline or ask about it; nothing changes", async () => {
    const { quoteId, requestId } = await sentQuote();
    const before = await fingerprint();
    expect((await trpcRefusal(asStranger.quotes.byId({ requestId }))).code).toBe("NOT_FOUND");
    expect((await trpcRefusal(asStranger.quotes.accept({ quoteId, purchaseOrder: "" }))).code).toBe("NOT_FOUND");
    expect((await trpcRefusal(asStranger.quotes.decline({ quoteId, reason: "No" }))).code).toBe("NOT_FOUND");
    expect((await trpcRefusal(asStranger.quotes.askChange({ quoteId, message: "Cheaper" }))).code).toBe("NOT_FOUND");
    expect(await fingerprint()).toBe(before);
    // Nor straight through the database: RLS shows them nothing of it.
    const rows = await (await contextAs(db, stranger)).db.transaction((trx) => trx.selectFrom("quotes").select("id").where("id", "=", quoteId).execute());
    expect(rows).toEqual([]);
  });

  it("the order page and purchase history say which quote the order came from", async () => {
    const { quoteId, number } = await sentQuote();
    const { reference } = await asBuyer.quotes.accept({ quoteId, purchaseOrder: "PO-1" });
    expect((await asBuyer.orders.byReference({ reference })).quoteNumber).toBe(number);
    expect((await asBuyer.orders.mine()).find((order) => order.reference === reference)?.quoteNumber).toBe(number);
  });

  it("paid, its invoice names the quote and the purchase-order number; the quote itself is a PDF for its customer", async () => {
    const { quoteId, number } = await sentQuote();
    const { orderId } = await asBuyer.quotes.accept({ quoteId, purchaseOrder: "PO-2026-0042" });
    await asAdmin.adminOrders.updateStatus({ id: orderId, status: "pending_delivery" });
    const [invoice] = await asBuyer.invoices.forOrder({ orderId });
    const text = await pdfText((await asBuyer.invoices.download({ id: invoice!.id })).pdf);
    expect(text).toContain(`Quote: ${number}`);
    expect(text).toContain("Your purchase order: PO-2026-0042");

    const quote = await asBuyer.quotes.pdf({ quoteId });
    expect(quote.fileName).toBe(`${number}.pdf`);
    const quoteText = await pdfText(quote.pdf);
    expect(quoteText).toContain(`Quote number: ${number}`);
    expect(quoteText).toContain("Embroidery set-up");
    expect(quoteText).toContain("R18450.00");
    expect((await trpcRefusal(asStranger.quotes.pdf({ quoteId }))).code).toBe("NOT_FOUND");
  });

  it("the overview counts the quotes sent and accepted in the range, and their value", async () => {
    const today = shopDay();
    const before = await asAdmin.overview.quotes({ from: today, to: today });
    const { quoteId } = await sentQuote();
    await sentQuote();
    await asBuyer.quotes.accept({ quoteId, purchaseOrder: "" });
    const after = await asAdmin.overview.quotes({ from: today, to: today });
    expect(after).toEqual({
      sent: before.sent + 2,
      sentValue: before.sentValue + 2 * 18450,
      accepted: before.accepted + 1,
      acceptedValue: before.acceptedValue + 18450,
    });
  });
});
