import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { messages } from "@/lib/messages";
import { ORDER_STATUSES } from "@/lib/statuses";
import { mailTheme, mailThemeTokens } from "@/server/mail/mail-theme";
import { MailDataError, renderMail, type RenderedMail } from "@/server/mail/render";
import { isMailTemplate, MAIL_TEMPLATES, type MailDataInput, type MailShop, type MailTemplate } from "@/server/mail/schemas";

/**
 * Every mail template rendered for real with React Email: subjects, the facts each mail must
 * carry in both its HTML and its plain-text part, escaping of what customers typed, and data
 * the schemas refuse.
 */

const shop: MailShop = {
  name: "Our World Services",
  siteUrl: "https://shop.example.co.za/",
  email: "hello@example.co.za",
  phone: "+27 11 555 0142",
  bank: {
    accountName: "Our World Services (Pty) Ltd",
    bankName: "First National Bank",
    accountNumber: "62812345678",
    branchCode: "250655",
    accountType: "Cheque",
  },
};

const HOSTILE = `<script>alert(1)</script> & "Bob"`;
/** How React writes HOSTILE into HTML text. */
const HOSTILE_ESCAPED = "&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;Bob&quot;";

const samples: { [T in MailTemplate]: MailDataInput<T> } = {
  order_received: {
    customerName: HOSTILE,
    reference: "ORD-123456",
    items: [
      { name: "Chicken & mushroom pie <large>", quantity: 3, unitPrice: "25.50" },
      { name: "Office deep clean", quantity: 1, unitPrice: 150 },
    ],
    total: "226.50",
  },
  status_changed: { customerName: HOSTILE, reference: "ORD-77", status: "pending_payment" },
  order_cancelled_unpaid: { customerName: HOSTILE, reference: "ORD-4242", total: 150, days: 7 },
  new_order: { customerName: HOSTILE, customerEmail: "bob@example.com", reference: "ORD-999", total: 149.5, itemCount: 4 },
  contact_message: { name: HOSTILE, email: "bob@example.com", phone: "+27 82 555 0101", message: "First line\nSecond <line> & more" },
  account_deleted: { customerName: HOSTILE },
  low_stock: { productId: "00000000-0000-4000-8000-000000000001", productName: HOSTILE, sku: "GS-L", stock: 2, lowStockAt: 3 },
  back_in_stock: { customerName: HOSTILE, productId: "00000000-0000-4000-8000-000000000001", productName: "Golf shirt — L / Navy" },
  payment_received: { customerName: HOSTILE, reference: "ORD-5150", amount: "226.50", provider: "PayFast", refundDue: false },
  payment_notice: {
    customerName: HOSTILE,
    customerEmail: "bob@example.com",
    reference: "ORD-5150",
    amount: 226.5,
    provider: "PayFast",
    providerPaymentId: "1089250",
    refundDue: false,
  },
  password_reset: { customerName: HOSTILE, token: "A".repeat(43) },
  email_change_confirm: { customerName: HOSTILE, newEmail: "new@example.com", token: "B".repeat(43) },
  email_change_notice: { customerName: HOSTILE, newEmail: "new@example.com" },
  booking_changed: {
    customerName: HOSTILE,
    reference: "ORD-3838",
    bookingId: "00000000-0000-4000-8000-000000000038",
    name: "Office deep clean",
    startsAt: "2026-12-10T08:00:00.000Z",
    endsAt: "2026-12-10T10:00:00.000Z",
    cancelled: false,
    sequence: 1796000000,
  },
  booking_reminder: {
    customerName: HOSTILE,
    reference: "ORD-3838",
    bookingId: "00000000-0000-4000-8000-000000000038",
    name: "Office deep clean",
    startsAt: "2026-12-10T08:00:00.000Z",
    endsAt: "2026-12-10T10:00:00.000Z",
    cancelled: false,
    sequence: 1796000000,
  },
  quote_requested: {
    requestId: "00000000-0000-4000-8000-000000000002",
    customerName: HOSTILE,
    customerEmail: "bob@example.com",
    description: "120 branded shirts\nLogo on the <line> chest",
    itemCount: 1,
    fileCount: 1,
    preferredDate: "2026-12-20",
    company: "Bob Builders Ltd",
  },
  quote_sent: { requestId: "00000000-0000-4000-8000-000000000002", customerName: HOSTILE, number: "Q-000012", version: 2, total: "18450.00", validUntil: "2026-12-31" },
  quote_change_asked: {
    requestId: "00000000-0000-4000-8000-000000000002",
    customerName: HOSTILE,
    customerEmail: "bob@example.com",
    number: "Q-000012",
    version: 1,
    message: "Navy instead of black, please",
  },
  new_order_alert: { reference: "ORD-999", customerName: HOSTILE, total: "149.50", paymentMethod: "bank_transfer", proofUploaded: true },
  new_booking_alert: { reference: "ORD-3838", customerName: HOSTILE, service: "Office deep clean", startsAt: "2026-12-10T08:00:00.000Z" },
};

function render<T extends MailTemplate>(template: T, data: MailDataInput<T> = samples[template]): Promise<RenderedMail> {
  return renderMail(template, data, shop);
}

/**
 * Both parts contain `value`: verbatim in the text, as React escapes it in the HTML. React marks
 * the seams between adjacent text nodes with `<!-- -->`, which readers never see.
 */
function expectInBoth(mail: RenderedMail, value: string) {
  expect(mail.text).toContain(value);
  expect(mail.html.replaceAll("<!-- -->", "")).toContain(value.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;"));
}

/** The plain-text part is text: no markup beyond what the customer typed. */
function expectPlainText(mail: RenderedMail) {
  const withoutTyped = mail.text.replaceAll(HOSTILE, "").replaceAll("<large>", "").replaceAll("<line>", "");
  expect(withoutTyped).not.toMatch(/<\/?[a-z][^>]*>/i);
  expect(withoutTyped).not.toMatch(/&(amp|lt|gt|quot|#x?[0-9a-f]+);/i);
}

describe("every template", () => {
  it.each(MAIL_TEMPLATES)("%s renders HTML and plain text with the shop's name and colours, and escapes what customers typed", async (template) => {
    const mail = await render(template);
    expect(mail.html).toMatch(/^<!DOCTYPE html/);
    expect(mail.html).toContain('lang="en-ZA"');
    expect(mail.subject).toContain("Our World Services");
    expect(mail.subject).not.toMatch(/[\r\n]/);
    expectInBoth(mail, "Our World Services");
    expectInBoth(mail, "hello@example.co.za");
    // The theme's colours, inline (mail clients know no CSS variables).
    expect(mail.html).toContain(mailTheme.brand700);
    expect(mail.html).not.toContain("var(--");
    // The customer's name: escaped in HTML, as typed in the text.
    expect(mail.html).not.toContain("<script>");
    expect(mail.html).toContain(HOSTILE_ESCAPED);
    expect(mail.text).toContain(HOSTILE);
    expectPlainText(mail);
  });

  it("knows exactly these templates", () => {
    expect(MAIL_TEMPLATES).toEqual([
      "order_received",
      "status_changed",
      "order_cancelled_unpaid",
      "new_order",
      "payment_received",
      "payment_notice",
      "contact_message",
      "account_deleted",
      "low_stock",
      "back_in_stock",
      "password_reset",
      "email_change_confirm",
      "email_change_notice",
      "booking_changed",
      "booking_reminder",
      "quote_requested",
      "quote_sent",
      "quote_change_asked",
      "new_order_alert",
      "new_booking_alert",
    ]);
    expect(isMailTemplate("order_received")).toBe(true);
    expect(isMailTemplate("toString")).toBe(false);
    expect(isMailTemplate("magic_link")).toBe(false);
  });
});

describe("order_received", () => {
  it("greets the customer and lists items, unit prices, line totals and the total", async () => {
    const mail = await render("order_received");
    expect(mail.subject).toBe("Order ORD-123456 received — Our World Services");
    expect(mail.replyTo).toBeUndefined();
    expectInBoth(mail, `Hello ${HOSTILE},`);
    expectInBoth(mail, "ORD-123456");
    expectInBoth(mail, "Chicken & mushroom pie <large>");
    expectInBoth(mail, "R25.50");
    expectInBoth(mail, "R76.50"); // 3 × R25.50
    expectInBoth(mail, "R150"); // whole amounts without decimals
    expectInBoth(mail, "R226.50");
    expect(mail.html).not.toContain("R150.00");
    // One line of text per item (quantity, unit price, line total side by side).
    expect(mail.text).toMatch(/Chicken & mushroom pie <large>\s+3\s+R25\.50\s+R76\.50/);
    expect(mail.text).toMatch(/Office deep clean\s+1\s+R150\s+R150/);
    expect(mail.text).toMatch(/Total\s+R226\.50/);
  });

  it("gives the bank details and the payment reference, and what happens next", async () => {
    const mail = await render("order_received");
    for (const [label, value] of [
      ["Account name", "Our World Services (Pty) Ltd"],
      ["Bank", "First National Bank"],
      ["Account number", "62812345678"],
      ["Branch code", "250655"],
      ["Account type", "Cheque"],
      ["Payment reference", "ORD-123456"],
    ] as const) {
      expect(mail.text).toContain(`${label}: ${value}`);
      expect(mail.html).toContain(value.replaceAll("&", "&amp;"));
    }
    expectInBoth(mail, "EFT");
    expectInBoth(mail, "We have your proof of payment");
    expectInBoth(mail, "deliver your order");
    expectInBoth(mail, "status changes");
    expect(mail.html).toContain('href="https://shop.example.co.za/profile/orders/ORD-123456"');
  });

  it("asks for the proof when it is not uploaded yet, and adds up in whole cents", async () => {
    const mail = await render("order_received", {
      ...samples.order_received,
      items: [{ name: "Pencil", quantity: 3, unitPrice: 0.1 }],
      total: 0.3,
      proofUploaded: false,
    });
    expectInBoth(mail, "upload your proof of payment");
    expect(mail.text).toMatch(/Pencil\s+3\s+R0\.10\s+R0\.30/);
    expect(mail.text).not.toContain("0.30000");
  });
});

describe("status_changed", () => {
  it.each(ORDER_STATUSES)("says %s in the customer's words and links to the order's page", async (status) => {
    const mail = await render("status_changed", { ...samples.status_changed, status });
    const words = messages.orderStatus[status];
    expect(mail.subject).toBe(`Order ORD-77: ${words} — Our World Services`);
    expectInBoth(mail, "ORD-77");
    expectInBoth(mail, words);
    expect(mail.html).toContain('href="https://shop.example.co.za/profile/orders/ORD-77"');
    expect(mail.text).toContain("https://shop.example.co.za/profile/orders/ORD-77");
  });

  it("uses the customer's words, not the admin's", async () => {
    const mail = await render("status_changed");
    expect(mail.subject).toContain("Pending Payment Verification");
    expect(messages.adminStatus.pending_payment).not.toBe(messages.orderStatus.pending_payment);
  });
});

describe("order_cancelled_unpaid", () => {
  it("says the order was cancelled because it was not paid within the policy's days", async () => {
    const mail = await render("order_cancelled_unpaid");
    expect(mail.subject).toBe("Order ORD-4242 cancelled — Our World Services");
    expectInBoth(mail, "ORD-4242");
    expectInBoth(mail, "R150");
    expectInBoth(mail, "within 7 days");
    const oneDay = await render("order_cancelled_unpaid", { ...samples.order_cancelled_unpaid, days: 1 });
    expectInBoth(oneDay, "within 1 day of");
  });
});

describe("new_order", () => {
  it("tells the shop who ordered what and links to the order in Order Management", async () => {
    const mail = await render("new_order");
    expect(mail.subject).toBe(`New order ORD-999 from ${HOSTILE} (R149.50) — Our World Services`);
    expectInBoth(mail, "ORD-999");
    expectInBoth(mail, "bob@example.com");
    expectInBoth(mail, "R149.50");
    expect(mail.text).toContain("Items: 4");
    expectInBoth(mail, messages.adminStatus.pending_payment);
    // The admin page reads its search from ?q= (src/app/admin/orders/page.tsx).
    expect(mail.html).toContain('href="https://shop.example.co.za/admin/orders?q=ORD-999"');
    expect(mail.text).toContain("https://shop.example.co.za/admin/orders?q=ORD-999");
  });
});

describe("delivery or collection (docs/architecture.md#delivery-and-collection)", () => {
  const delivery = { method: "delivery" as const, day: "2026-12-02", address: "4 Maude Street", area: "Sandton", fee: "60.00" };
  it("order_received says the day, the address and the fee of a delivery", async () => {
    const mail = await render("order_received", { ...samples.order_received, fulfilment: delivery });
    expectInBoth(mail, "Wednesday, 2 December 2026");
    expectInBoth(mail, "4 Maude Street, Sandton");
    expectInBoth(mail, "R60");
  });

  it("order_received says where and when to collect", async () => {
    const mail = await render("order_received", {
      ...samples.order_received,
      fulfilment: { method: "collection", day: "2026-12-03", collectionAddress: "12 Rivonia Road", collectionHours: "Mon-Fri 08:00-17:00" },
    });
    expectInBoth(mail, "Thursday, 3 December 2026");
    expectInBoth(mail, "12 Rivonia Road");
    expectInBoth(mail, "Mon-Fri 08:00-17:00");
  });

  it("order_received words the opening hours the order's data carries", async () => {
    const week = [1, 2, 3, 4, 5].map((weekday) => ({ weekday, opens: "09:00", closes: "16:00" }));
    const mail = await render("order_received", {
      ...samples.order_received,
      fulfilment: { method: "collection", day: "2026-12-03", collectionAddress: "12 Rivonia Road", openingHours: [...week, { weekday: 6, opens: "09:00", closes: "13:00" }] },
    });
    expectInBoth(mail, "Mon–Fri 09:00–16:00, Sat 09:00–13:00");
  });

  it("new_order tells the shop the method, day and address; a mail without fulfilment says none", async () => {
    const mail = await render("new_order", { ...samples.new_order, fulfilment: delivery });
    expect(mail.text).toContain("Delivery: Wednesday, 2 December 2026");
    expect(mail.text).toContain("Address: 4 Maude Street, Sandton");
    expect((await render("new_order")).text).not.toContain("Delivery:");
  });
});

describe("paying online (PayFast)", () => {
  it("order_received for 'Pay now' says the payment is online, with no bank details, and how to pay if it was left unfinished", async () => {
    const mail = await render("order_received", { ...samples.order_received, paymentMethod: "payfast", proofUploaded: false });
    expect(mail.text).toContain("through PayFast");
    expect(mail.text).not.toContain(shop.bank.accountNumber);
    expect(mail.text).toContain("purchase history");
  });

  it("new_order says how the order is being paid", async () => {
    expect((await render("new_order", { ...samples.new_order, paymentMethod: "payfast" })).text).toContain("Payment: Pay now (PayFast)");
    expect((await render("new_order")).text).toContain("Payment: Bank transfer with proof of payment");
  });

  it("payment_received tells the customer the order is paid, or that a late payment will be refunded", async () => {
    const paid = await render("payment_received");
    expect(paid.subject).toBe("Payment received for order ORD-5150 — Our World Services");
    expectInBoth(paid, "Paid by PayFast");
    expectInBoth(paid, "R226.50");
    const late = await render("payment_received", { ...samples.payment_received, refundDue: true });
    expect(late.subject).toContain("will be refunded");
    expect(late.text).toContain("refund");
  });

  it("payment_notice gives the shop the method, PayFast's payment id and the amount, and flags a refund due", async () => {
    const notice = await render("payment_notice");
    expect(notice.subject).toBe("Order ORD-5150 paid by PayFast (R226.50) — Our World Services");
    expect(notice.text).toContain("Paid by: PayFast");
    expect(notice.text).toContain("PayFast payment id: 1089250");
    expect(notice.text).toContain(messages.adminStatus.pending_delivery);
    const refund = await render("payment_notice", { ...samples.payment_notice, refundDue: true });
    expect(refund.subject).toBe("Refund due: PayFast payment for order ORD-5150 — Our World Services");
  });
});

describe("contact_message", () => {
  it("carries the sender's details and message, and replies go to the sender", async () => {
    const mail = await render("contact_message");
    expect(mail.subject).toBe(`Message from ${HOSTILE} — Our World Services contact form`);
    expect(mail.replyTo).toBe("bob@example.com");
    expectInBoth(mail, "bob@example.com");
    expectInBoth(mail, "+27 82 555 0101");
    expectInBoth(mail, "Second <line> & more");
    // The sender's line breaks survive in both parts.
    expect(mail.text).toContain("First line\nSecond <line> & more");
    expect(mail.html).toContain("First line<br/>Second &lt;line&gt; &amp; more");
  });

  it("says when no phone number was given", async () => {
    for (const phone of [null, undefined, ""]) {
      const mail = await render("contact_message", { ...samples.contact_message, phone });
      expect(mail.text).toContain("Phone: not given");
    }
  });

  it("keeps line breaks out of the subject", async () => {
    const mail = await render("contact_message", { ...samples.contact_message, name: "Eve\r\nBcc: victim@example.com" });
    expect(mail.subject).toBe("Message from Eve Bcc: victim@example.com — Our World Services contact form");
  });
});

describe("account links (issue 34)", () => {
  it("password_reset links to /auth/reset on the shop's own address with the token, and says the link works once for an hour", async () => {
    const mail = await render("password_reset");
    expectInBoth(mail, `https://shop.example.co.za/auth/reset?token=${"A".repeat(43)}`);
    expect(mail.text).toContain("works once, for one hour");
  });

  it("email_change_confirm links to /auth/confirm-email; the notice to the old address carries no link but the new address", async () => {
    const confirm = await render("email_change_confirm");
    expectInBoth(confirm, `/auth/confirm-email?token=${"B".repeat(43)}`);
    const notice = await render("email_change_notice");
    expect(notice.text).toContain("new@example.com");
    expect(notice.text).not.toContain("token=");
  });

  it("refuses a token that is not one the shop makes", async () => {
    await expect(render("password_reset", { customerName: "A", token: "javascript:alert(1)" })).rejects.toThrow(/token/);
  });
});

describe("account_deleted", () => {
  it("confirms what was deleted and that orders are kept for the tax records", async () => {
    const mail = await render("account_deleted");
    expect(mail.subject).toBe("Your Our World Services account has been deleted");
    expectInBoth(mail, "account, your profile and your cart");
    expectInBoth(mail, "We keep the orders");
    expectInBoth(mail, "tax");
  });
});

describe("the schemas refuse data a template cannot be rendered from", () => {
  const refused: [MailTemplate, unknown][] = [
    ["order_received", { ...samples.order_received, reference: "ORD-1234567" }],
    ["order_received", { ...samples.order_received, reference: undefined }],
    ["order_received", { ...samples.order_received, items: [] }],
    ["order_received", { ...samples.order_received, total: -1 }],
    ["order_received", { ...samples.order_received, total: "12.345" }],
    ["order_received", { ...samples.order_received, total: "R150" }],
    ["order_received", { ...samples.order_received, items: [{ name: "Pie", quantity: 1.5, unitPrice: 10 }] }],
    ["order_received", { ...samples.order_received, items: [{ name: "", quantity: 1, unitPrice: 10 }] }],
    ["order_received", { ...samples.order_received, customerName: "   " }],
    ["status_changed", { ...samples.status_changed, status: "shipped" }],
    ["order_cancelled_unpaid", { ...samples.order_cancelled_unpaid, days: 0 }],
    ["new_order", { ...samples.new_order, customerEmail: "not-an-address" }],
    ["new_order", { ...samples.new_order, itemCount: 0 }],
    ["contact_message", { ...samples.contact_message, message: "" }],
    ["contact_message", { ...samples.contact_message, email: "bob" }],
    ["account_deleted", {}],
    ["account_deleted", null],
    ["account_deleted", "Bob"],
  ];

  it.each(refused)("%s refuses %j", async (template, data) => {
    const failure = await renderMail(template, data, shop).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(MailDataError);
    expect((failure as MailDataError).template).toBe(template);
    expect((failure as MailDataError).issues.length).toBeGreaterThan(0);
  });

  it("names the fields, never their values (personal data)", async () => {
    const failure = await renderMail("new_order", { ...samples.new_order, customerEmail: "secret-person@@example" }, shop).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(MailDataError);
    expect((failure as Error).message).toContain("data.customerEmail");
    expect((failure as Error).message).not.toContain("secret-person");
  });

  it("refuses an unknown template and shop settings that would make a bad link", async () => {
    await expect(renderMail("password_reset" as MailTemplate, {}, shop)).rejects.toThrow(MailDataError);
    await expect(renderMail("account_deleted", samples.account_deleted, { ...shop, siteUrl: "javascript:alert(1)" })).rejects.toThrow(/shop\.siteUrl/);
    await expect(renderMail("account_deleted", samples.account_deleted, { ...shop, siteUrl: "ftp://shop.example.co.za" })).rejects.toThrow(/shop\.siteUrl/);
    await expect(renderMail("account_deleted", samples.account_deleted, { ...shop, bank: { ...shop.bank, accountType: "" } })).rejects.toThrow(
      /shop\.bank\.accountType/,
    );
  });
});

describe("links", () => {
  it("work with a development origin too", async () => {
    const mail = await renderMail("status_changed", samples.status_changed, { ...shop, siteUrl: "http://localhost:3000" });
    expect(mail.html).toContain('href="http://localhost:3000/profile/orders/ORD-77"');
  });
});

describe("mail theme", () => {
  it("copies the site's theme tokens exactly", () => {
    const css = readFileSync(path.resolve(import.meta.dirname, "../../src/app/globals.css"), "utf8");
    for (const [key, token] of Object.entries(mailThemeTokens)) {
      const match = new RegExp(`${token}:\\s*(#[0-9a-fA-F]{3,8})\\s*;`).exec(css);
      expect(match, token).not.toBeNull();
      expect(mailTheme[key as keyof typeof mailThemeTokens].toLowerCase(), token).toBe(match?.[1]?.toLowerCase());
    }
  });
});

describe("quote mails", () => {
  it("the customer's quote names its number, version, total and validity, and links to the quote page", async () => {
    const mail = await render("quote_sent");
    expect(mail.subject).toBe("Your revised quote Q-000012 from Our World Services");
    expectInBoth(mail, "Q-000012 (version 2)");
    expectInBoth(mail, "R18450");
    expect(mail.html).toContain("https://shop.example.co.za/profile/quotes/00000000-0000-4000-8000-000000000002");
  });

  it("the shop's mails carry the customer's words and link to the inbox", async () => {
    const requested = await render("quote_requested");
    expectInBoth(requested, "Bob Builders Ltd");
    expect(requested.html).toContain("https://shop.example.co.za/admin/quotes/00000000-0000-4000-8000-000000000002");
    const change = await render("quote_change_asked");
    expect(change.subject).toContain("Q-000012");
    expectInBoth(change, "Navy instead of black, please");
  });
});
