/**
 * Invoices through the API (issue 26): the settings and the buyer's details, issuing through
 * Order Management, and the PDF read back as text with pdf.js: every field SARS asks of a tax
 * invoice at R4,999.99 (abridged) and R5,000.01 (full, with the buyer's details), "Copy" from the
 * second download on, a plain invoice without VAT, and a credit note naming its invoice.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { invoiceMessages } from "@/lib/messages";
import { invoiceDate } from "@/server/invoices/invoice-pdf";
import { trpcRefusal } from "../helpers/attempt";
import { pdfText } from "../helpers/pdf-text";
import { callerAs } from "../helpers/browser";
import { createUser, freshDatabase, type TestDatabase, type TestUser } from "../helpers/database";
import { placeTestOrder } from "../helpers/orders";

let db: TestDatabase;
let admin: TestUser;
let business: TestUser;
let stranger: TestUser;
const products = { below: "", above: "" };

const SETTINGS = {
  vatRegistered: true,
  vatNumber: "4 123 456 789",
  legalName: "Our World Services (Pty) Ltd",
  legalAddress: "12 Market Street, Johannesburg, 2001",
  invoicePrefix: "ows-",
};

beforeAll(async () => {
  db = await freshDatabase();
  admin = await createUser(db, { role: "admin", fullName: "Shop Owner" });
  business = await createUser(db, { fullName: "Zoë van der Merwe" });
  stranger = await createUser(db, { fullName: "Someone Else" });
  const category = (await db.kysely.selectFrom("categories").select("id").where("name", "=", "Risk Consulting & Recruitment").executeTakeFirstOrThrow()).id;
  const product = async (name: string, price: string) =>
    (await db.kysely.insertInto("products").values({ name, price, category_id: category, image_path: null }).returning("id").executeTakeFirstOrThrow()).id;
  products.below = await product("Recruitment & Vetting: senior role", "4999.99");
  products.above = await product("Recruitment & Vetting: executive role", "5000.01");
});

afterAll(async () => {
  await db?.close();
});

/** Places an order of `productId` for `user`, has the admin mark it paid, and returns its invoice. */
async function paidOrder(user: TestUser, productId: string) {
  const order = await placeTestOrder(db, user, [productId]);
  await (await callerAs(db, admin)).adminOrders.updateStatus({ id: order.id, status: "pending_delivery" });
  const documents = await (await callerAs(db, user)).invoices.forOrder({ orderId: order.id });
  expect(documents).toHaveLength(1);
  return { order, invoice: documents[0]! };
}

describe("invoice settings and the buyer's details", () => {
  it("admins save the settings (normalised); customers may not; a bad VAT number is refused with the form's message", async () => {
    const asAdmin = await callerAs(db, admin);
    const saved = await asAdmin.invoices.updateSettings(SETTINGS);
    expect(saved.values).toMatchObject({ vatNumber: "4123456789", invoicePrefix: "OWS-" });
    expect((await asAdmin.invoices.settings()).values).toMatchObject({ vatRegistered: true, vatNumber: "4123456789", invoicePrefix: "OWS-" });
    expect((await trpcRefusal((await callerAs(db, business)).invoices.updateSettings(SETTINGS))).code).toBe("FORBIDDEN");
    const bad = await trpcRefusal(asAdmin.invoices.updateSettings({ ...SETTINGS, vatNumber: "5123456789" }));
    expect(bad.code).toBe("BAD_REQUEST");
    expect(bad.message).toContain(invoiceMessages.vatNumberInvalid);
    const missing = await trpcRefusal(asAdmin.invoices.updateSettings({ ...SETTINGS, vatNumber: "" }));
    expect(missing.message).toContain(invoiceMessages.vatNumberRequired);
  });

  it("a customer saves their company, address and VAT number, and reads back only their own", async () => {
    const asBusiness = await callerAs(db, business);
    await asBusiness.invoices.saveMyDetails({ company: "Van der Merwe Consulting CC", address: "8 Church Street, Stellenbosch, 7600", vatNumber: "4987654321" });
    expect(await asBusiness.invoices.myDetails()).toEqual({ company: "Van der Merwe Consulting CC", address: "8 Church Street, Stellenbosch, 7600", vatNumber: "4987654321" });
    expect(await (await callerAs(db, stranger)).invoices.myDetails()).toEqual({ company: "", address: "", vatNumber: "" });
    expect((await trpcRefusal(asBusiness.invoices.saveMyDetails({ company: "", address: "", vatNumber: "123" }))).message).toContain(invoiceMessages.vatNumberInvalid);
    expect((await trpcRefusal((await callerAs(db, null)).invoices.myDetails())).code).toBe("UNAUTHORIZED");
  });
});

describe("the PDF, read back as text", () => {
  it("R4,999.99: an abridged tax invoice with every field SARS requires", async () => {
    const { order, invoice } = await paidOrder(business, products.below);
    const { pdf, copy } = await (await callerAs(db, business)).invoices.download({ id: invoice.id });
    expect(copy).toBe(false);
    const text = await pdfText(pdf);
    for (const field of [
      "Tax Invoice",
      "Our World Services (Pty) Ltd",
      "12 Market Street, Johannesburg, 2001",
      "VAT number: 4123456789",
      `Invoice number: ${invoice.number}`,
      `Date: ${invoiceDate(invoice.issuedAt.toISOString())}`,
      order.reference,
      "Recruitment & Vetting: senior role",
      "R4999.99",
      // 4999.99 × 15/115 = 652.172… ; excluding VAT 4347.82.
      "VAT at 15% R652.17",
      "Total excluding VAT R4347.82",
      "Total including VAT R4999.99",
    ]) {
      expect(text).toContain(field);
    }
    expect(invoice.number).toMatch(/^OWS-\d{6}$/);
    expect(text).not.toContain("Copy");
  });

  it("R5,000.01: a full tax invoice with the buyer's name, address and VAT number", async () => {
    const { invoice } = await paidOrder(business, products.above);
    const text = await pdfText((await (await callerAs(db, business)).invoices.download({ id: invoice.id })).pdf);
    for (const field of [
      "Tax Invoice",
      "Our World Services (Pty) Ltd",
      "VAT number: 4123456789",
      `Invoice number: ${invoice.number}`,
      "Van der Merwe Consulting CC",
      "Zoë van der Merwe",
      "8 Church Street, Stellenbosch, 7600",
      "VAT number: 4987654321",
      "Recruitment & Vetting: executive role",
      "VAT at 15% R652.18",
      "Total including VAT R5000.01",
    ]) {
      expect(text).toContain(field);
    }
  });

  it("the second and every later download, by the customer or an admin, is marked Copy; the PDF's figures never change", async () => {
    const { invoice } = await paidOrder(business, products.below);
    const first = await (await callerAs(db, business)).invoices.download({ id: invoice.id });
    const second = await (await callerAs(db, admin)).invoices.download({ id: invoice.id });
    const third = await (await callerAs(db, business)).invoices.download({ id: invoice.id });
    expect([first.copy, second.copy, third.copy]).toEqual([false, true, true]);
    const [a, b] = [await pdfText(first.pdf), await pdfText(third.pdf)];
    expect(a).not.toContain("Copy");
    expect(b).toContain("Copy");
    expect(b.replace("Copy", "").replace(/\s+/g, " ").trim()).toBe(a.trim());
  });

  it("another customer and visitors get nothing, not even whether it exists", async () => {
    const { invoice, order } = await paidOrder(business, products.below);
    const refused = await trpcRefusal((await callerAs(db, stranger)).invoices.download({ id: invoice.id }));
    expect(refused.code).toBe("NOT_FOUND");
    expect(refused.message).toBe(invoiceMessages.notFound);
    expect(await (await callerAs(db, stranger)).invoices.forOrder({ orderId: order.id })).toEqual([]);
    expect((await trpcRefusal((await callerAs(db, null)).invoices.download({ id: invoice.id }))).code).toBe("UNAUTHORIZED");
    const downloads = await db.kysely.selectFrom("invoice_downloads").select("id").where("invoice_id", "=", invoice.id).execute();
    expect(downloads).toEqual([]);
  });

  it("a cancelled paid order's credit note names the invoice it cancels", async () => {
    const { order, invoice } = await paidOrder(business, products.above);
    await (await callerAs(db, admin)).adminOrders.updateStatus({ id: order.id, status: "cancelled" });
    const documents = await (await callerAs(db, business)).invoices.forOrder({ orderId: order.id });
    const credit = documents.find((d) => d.kind === "credit_note")!;
    expect(credit.number).toMatch(/^OWS-CN\d{6}$/);
    const text = await pdfText((await (await callerAs(db, business)).invoices.download({ id: credit.id })).pdf);
    for (const field of ["Tax Credit Note", `Credit note number: ${credit.number}`, `Credits invoice ${invoice.number}`, "Total including VAT R5000.01", "VAT at 15% R652.18"]) {
      expect(text).toContain(field);
    }
  });

  it("a shop not registered for VAT issues a plain Invoice with no VAT lines", async () => {
    await (await callerAs(db, admin)).invoices.updateSettings({ ...SETTINGS, vatRegistered: false, vatNumber: "" });
    const { invoice } = await paidOrder(stranger, products.above);
    const text = await pdfText((await (await callerAs(db, stranger)).invoices.download({ id: invoice.id })).pdf);
    expect(text).toContain("Invoice");
    expect(text).not.toContain("Tax Invoice");
    expect(text).not.toContain("VAT at");
    expect(text).not.toContain("VAT number");
    expect(text).toContain("Total R5000.01");
    await (await callerAs(db, admin)).invoices.updateSettings(SETTINGS);
  });
});
