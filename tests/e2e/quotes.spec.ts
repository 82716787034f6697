import fs from "node:fs";
import AxeBuilder from "@axe-core/playwright";
import type { Download, Page } from "@playwright/test";
import { getDocument, VerbosityLevel } from "pdfjs-dist/legacy/build/pdf.mjs";
import { formatDay } from "../../src/lib/days";
import { messages, orderPageMessages, quoteMessages as q } from "../../src/lib/messages";
import { makePng } from "../helpers/images";
import { expect, test } from "./test";
import { DEMO_ADMIN, signIn, uniqueEmail } from "./fixtures";

/** The seeded golf shirt (supabase/seed.sql): one variant, R189. */
const SHIRT = { id: "6f1c2a10-3b4d-4e5f-8a01-000000000009", name: "Embroidered Company Golf Shirt" };

async function pdfText(download: Download): Promise<string> {
  const bytes = new Uint8Array(fs.readFileSync((await download.path())!));
  const task = getDocument({ data: bytes, verbosity: VerbosityLevel.ERRORS, useWasm: false, useSystemFonts: false });
  const doc = await task.promise;
  const content = await (await doc.getPage(1)).getTextContent();
  await task.destroy();
  return content.items.map((item) => ("str" in item ? item.str : "")).join(" ").replace(/\s+/g, " ");
}

async function noSeriousAxeViolations(page: Page, label: string) {
  await page.waitForLoadState("networkidle");
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]).analyze();
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(serious.map((v) => `${label}: ${v.id} ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
}

async function signUp(page: Page, fullName: string) {
  await page.goto("/auth/signup");
  await page.getByLabel("Full name").fill(fullName);
  await page.getByLabel("Email").fill(uniqueEmail("quoter"));
  await page.getByLabel("Password", { exact: true }).fill("quoter-pass-2026");
  await page.getByLabel("Confirm password", { exact: true }).fill("quoter-pass-2026");
  await page.getByLabel("I agree to the Terms & Privacy Policy").check();
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByTestId("greeting")).toBeVisible();
}

/** The admin sets the shirt's "Request a quote" on the product dashboard. */
async function setShirtQuoteMode(admin: Page, mode: keyof typeof q.modes) {
  await admin.goto("/admin/dashboard");
  const row = admin.getByRole("list", { name: "Products" }).getByRole("listitem").filter({ hasText: SHIRT.name }).first();
  await row.getByLabel(`${q.modeLabel} for ${SHIRT.name}`).selectOption(mode);
  await expect(admin.getByText(q.modeSaved(SHIRT.name))).toBeVisible();
}

const f = messages.fulfilment;
/** The seeded deep clean, made a bookable service for one test (as tests/e2e/bookings.spec.ts does). */
const SERVICE = "Carpet & Upholstery Deep Clean";

async function bookingPanel(page: Page) {
  await page.goto("/admin/dashboard");
  const item = page.getByRole("list", { name: "Products" }).getByRole("listitem").filter({ hasText: SERVICE });
  await item.getByRole("button", { name: `Booking of ${SERVICE}` }).click();
  return item.getByRole("form", { name: messages.bookings.admin.panel });
}
/** The delivery area these tests set up (and remove again, for the other tests). */
const AREA = "Midrand";

async function fulfilmentSection(page: Page) {
  await page.goto("/admin/settings");
  return page.getByTestId("fulfilment-settings");
}

test.describe("quotes", () => {
  test.beforeAll(async ({ browser }) => {
    // The owner delivers to Midrand for R75, as docs/delivery-and-collection.md says: accepting
    // a quote of goods then asks delivery, as checkout does.
    const page = await (await browser.newContext()).newPage();
    await signIn(page, DEMO_ADMIN);
    const section = await fulfilmentSection(page);
    await section.getByLabel("Suburb or postal code").fill(AREA);
    await section.getByLabel("Fee (R)").fill("75");
    await section.getByRole("button", { name: "Add area" }).click();
    await expect(section.getByText(f.areaSaved(AREA))).toBeVisible();
  });

  test.afterAll(async ({ browser }) => {
    const page = await (await browser.newContext()).newPage();
    await signIn(page, DEMO_ADMIN);
    const section = await fulfilmentSection(page);
    await section.getByRole("button", { name: `Remove ${AREA}` }).click();
    await expect(section.getByText(f.areaRemoved(AREA))).toBeVisible();
  });

  test("120 branded shirts: asked with a logo, priced with a set-up line, revised, accepted with delivery, paid by transfer; the invoice names the quote and the PO", async ({ page, browser }) => {
    test.setTimeout(180_000);
    const admin = await (await browser.newContext()).newPage();
    await signIn(admin, DEMO_ADMIN);
    await setShirtQuoteMode(admin, "beside");

    // The customer asks from the shirt's page, with their logo.
    await signUp(page, "Nomsa Branding");
    await page.goto(`/products/${SHIRT.id}`);
    await expect(page.getByRole("button", { name: "Add to Cart" }).first()).toBeVisible();
    await page.getByTestId("request-quote").click();
    await expect(page).toHaveURL(/\/quotes\/new\?product=/);
    await noSeriousAxeViolations(page, "request form");
    await page.getByLabel(q.descriptionLabel).fill("120 golf shirts, navy, our logo on the chest.");
    await page.getByLabel(SHIRT.name).fill("120");
    await page.getByLabel(q.companyLabel).fill("Nomsa Holdings");
    await page.getByLabel(q.filesLabel).setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: makePng(64, 64, 40) });
    await expect(page.getByTestId("quote-files")).toContainText("logo.png");
    await page.getByRole("button", { name: q.requestButton }).click();
    await expect(page).toHaveURL(/\/profile\/quotes\/[0-9a-f-]{36}$/);
    await expect(page.getByText(q.waiting)).toBeVisible();
    const quoteUrl = page.url();
    const requestId = quoteUrl.split("/").at(-1)!;

    // The admin prices it: the shirts at R150 (list R189) and a custom set-up line, and sends it.
    await admin.goto("/admin/quotes");
    await admin.getByRole("table", { name: q.inboxTitle }).getByRole("link", { name: q.newRequest }).first().click();
    await expect(admin).toHaveURL(new RegExp(`/admin/quotes/${requestId}$`));
    await expect(admin.getByTestId("quote-description")).toContainText("120 golf shirts");
    await expect(admin.getByRole("link", { name: "logo.png" })).toBeVisible();
    const lines = admin.getByTestId("builder-line");
    await expect(lines).toHaveCount(1);
    await expect(lines.first().getByLabel(q.quantityLabel)).toHaveValue("120");
    await lines.first().getByLabel(q.unitPriceLabel).fill("150");
    await admin.getByRole("button", { name: q.addCustomLine }).click();
    await lines.nth(1).getByLabel(q.descriptionOfLine(2)).fill("Embroidery set-up (logo digitising)");
    await lines.nth(1).getByLabel(q.unitPriceLabel).fill("450");
    await admin.getByLabel(q.termsLabel, { exact: true }).fill("50% deposit on order; 10 working days.");
    await admin.getByRole("button", { name: q.send }).click();
    await expect(admin.getByText(/^Quote Q-\d{6} sent to the customer\.$/)).toBeVisible();
    await expect(admin.getByRole("heading", { level: 1 })).toHaveText(/^Quote Q-\d{6}$/);
    const number = (await admin.getByRole("heading", { level: 1 }).textContent())!.replace("Quote ", "");
    expect(number).toMatch(/^Q-\d{6}$/);

    // The customer reads it and asks for a change.
    await page.goto(quoteUrl);
    await expect(page.getByRole("heading", { name: `Quote ${number}` })).toBeVisible();
    await expect(page.getByTestId("quote-total")).toHaveText("Total R18450.00");
    await noSeriousAxeViolations(page, "quote page");
    await page.getByRole("button", { name: q.changeButton }).click();
    await page.getByLabel(q.changeLabel).fill("Could the set-up be less for a repeat order?");
    await page.getByRole("button", { name: q.sendChange }).click();
    await expect(page.getByText(q.changeAsked)).toBeVisible();

    // The admin sees the change asked for and sends a revision with a lower set-up.
    await admin.goto(`/admin/quotes/${requestId}`);
    await expect(admin.getByText(q.changeRequested).first()).toBeVisible();
    await expect(admin.getByRole("heading", { name: q.revise })).toBeVisible();
    await noSeriousAxeViolations(admin, "quote builder");
    await admin.getByTestId("builder-line").nth(1).getByLabel(q.unitPriceLabel).fill("300");
    await admin.getByRole("button", { name: q.send }).click();
    await expect(admin.getByText(q.sent(number))).toBeVisible();

    // The customer accepts version 2 with delivery, as checkout asks it (the area first, or it
    // is refused in checkout's words), and their purchase-order number: the order's page.
    await page.goto(quoteUrl);
    await expect(page.getByText(q.version(2))).toBeVisible();
    await expect(page.getByTestId("quote-total").first()).toHaveText("Total R18300.00");
    const picker = page.getByTestId("fulfilment");
    await expect(picker).toBeVisible();
    await page.getByLabel(q.purchaseOrderLabel).fill("PO-7781");
    await page.getByRole("button", { name: q.acceptSubmit }).click();
    await expect(page.getByText(f.areaUnknown)).toBeVisible();
    await picker.getByLabel(f.area).selectOption({ label: `${AREA} (R75)` });
    await picker.getByLabel(f.address).fill("1 Site Road, Midrand");
    const day = await picker.getByLabel(f.day).inputValue();
    expect(day).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    await expect(page.getByTestId("quote-delivery-fee")).toHaveText(`${f.deliveryFee}R75`);
    await expect(page.getByTestId("quote-total-with-delivery")).toHaveText(`${q.totalWithDelivery}R18375`);
    await page.getByRole("button", { name: q.acceptSubmit }).click();
    await expect(page).toHaveURL(/\/profile\/orders\/ORD-\d+$/);
    const reference = decodeURIComponent(page.url().split("/").at(-1)!);
    await expect(page.getByTestId("from-quote")).toContainText(q.fromQuote(number));
    await expect(page.getByTestId("order-total")).toHaveText("Total R18375.00");
    await expect(page.getByTestId("order-fulfilment")).toContainText(f.deliveredOn(formatDay(day)));

    // Paid by bank transfer: the proof on the order's page.
    await page.getByLabel(/^Proof of payment/).setInputFiles({ name: "proof.png", mimeType: "image/png", buffer: makePng(120, 90, 90) });
    await page.getByRole("button", { name: "Upload proof of payment" }).click();
    // The page says thank you, then (as soon as the order is read again) that the proof is in.
    await expect(page.getByText(messages.payments.proofAttached(reference)).or(page.getByText(orderPageMessages.proofReceived))).toBeVisible();

    // The admin confirms the payment; the invoice names the quote and the purchase order.
    await admin.goto(`/admin/orders?q=${reference}`);
    const card = admin.getByTestId("order-card").filter({ hasText: reference });
    await card.getByLabel("Status").selectOption("pending_delivery");
    await expect(admin.getByText(messages.adminOrders.updated(reference, "Pending Delivery"))).toBeVisible();
    await page.goto(`/profile/orders/${reference}`);
    const link = page.getByTestId("invoice-links").getByRole("link").first();
    const [invoice] = await Promise.all([page.waitForEvent("download"), link.click()]);
    const text = await pdfText(invoice);
    expect(text).toContain(`Quote: ${number}`);
    expect(text).toContain("Your purchase order: PO-7781");

    // The purchase history says where the order came from; the quote shows it accepted.
    await page.goto("/profile");
    await expect(page.getByTestId("from-quote").first()).toContainText(q.fromQuote(number));
    await page.goto(quoteUrl);
    await expect(page.getByTestId("quote-state")).toHaveText(q.states.accepted);

    await setShirtQuoteMode(admin, "off");
  });

  test("a deep clean quoted as a bookable service: accepting asks a free time for it (no delivery), and the order books it", async ({ page, browser }) => {
    test.setTimeout(150_000);
    const admin = await (await browser.newContext()).newPage();
    await signIn(admin, DEMO_ADMIN);
    const panel = await bookingPanel(admin);
    await panel.getByLabel(messages.bookings.admin.bookable).check();
    await panel.getByLabel("Duration (minutes)").fill("120");
    await panel.getByLabel("Minimum notice (hours)").fill("0");
    await panel.getByRole("button", { name: "Save booking settings" }).click();
    await expect(admin.getByText(messages.bookings.admin.saved(SERVICE))).toBeVisible();

    // The customer asks in words; the owner quotes the service from the catalogue.
    await signUp(page, "Sipho Facilities");
    await page.goto("/quotes/new");
    await page.getByLabel(q.descriptionLabel).fill("A deep clean of our boardroom carpets and chairs.");
    await page.getByRole("button", { name: q.requestButton }).click();
    await expect(page).toHaveURL(/\/profile\/quotes\/[0-9a-f-]{36}$/);
    const quoteUrl = page.url();
    await admin.goto(`/admin/quotes/${quoteUrl.split("/").at(-1)}`);
    await admin.getByRole("button", { name: q.addCatalogueLine }).click();
    const line = admin.getByTestId("builder-line").first();
    await line.getByLabel(q.variantLabel(1)).selectOption({ label: SERVICE });
    await line.getByLabel(q.unitPriceLabel).fill("800");
    await admin.getByRole("button", { name: q.send }).click();
    await expect(admin.getByText(/^Quote Q-\d{6} sent to the customer\.$/)).toBeVisible();

    // Accepting asks a time for the service, and nothing about delivery (there are no goods).
    await page.goto(quoteUrl);
    const times = page.getByTestId("quote-line-time");
    await expect(times.getByText(q.chooseTimeFor(SERVICE))).toBeVisible();
    await expect(page.getByTestId("fulfilment")).toHaveCount(0);
    await page.getByRole("button", { name: q.acceptSubmit }).click();
    await expect(page.getByText(q.slotRequired(SERVICE))).toBeVisible();
    const time = times.getByRole("group", { name: "Time", exact: true }).getByRole("button").first();
    await time.click();
    await expect(time).toHaveAttribute("aria-pressed", "true");
    await page.getByRole("button", { name: q.acceptSubmit }).click();
    await expect(page).toHaveURL(/\/profile\/orders\/ORD-\d+$/);
    await expect(page.getByText(/^Booked for /).first()).toBeVisible();
    await expect(page.getByTestId("order-total")).toHaveText("Total R800.00");

    // The deep clean goes back to being sold as before, as the other tests expect it.
    const again = await bookingPanel(admin);
    await again.getByLabel(messages.bookings.admin.bookable).uncheck();
    await again.getByRole("button", { name: "Save booking settings" }).click();
    await expect(admin.getByText(messages.bookings.admin.stopped(SERVICE))).toBeVisible();
  });
});
