import fs from "node:fs";
import AxeBuilder from "@axe-core/playwright";
import type { Download, Page } from "@playwright/test";
import { expect, test } from "./test";
import { getDocument, VerbosityLevel } from "pdfjs-dist/legacy/build/pdf.mjs";
import { invoiceMessages, messages } from "../../src/lib/messages";
import { makePng } from "../helpers/images";
import { DEMO_ADMIN, newCustomerAtCheckout, signIn } from "./fixtures";

/** The text of a downloaded PDF, as pdf.js reads it. */
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
  await page.addStyleTag({ content: "*, *::before, *::after { transition: none !important; animation: none !important; }" });
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]).analyze();
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(serious.map((v) => `${label}: ${v.id} ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
}

test.describe("invoices and the sales overview", () => {
  test("a business customer gives their details at checkout; once paid, both download the invoice PDF (the second is a copy) from the production build", async ({ page, browser }) => {
    const reference = await newCustomerAtCheckout(page, "Ayanda Business", "invoicer");
    // The checkout's own small form, saved through its own procedure.
    const details = page.getByRole("group").or(page.locator("details")).filter({ hasText: invoiceMessages.detailsTitle }).first();
    await details.locator("summary").click();
    const form = page.getByRole("form", { name: invoiceMessages.detailsTitle });
    await form.getByLabel("Company name").fill("Ayanda Holdings (Pty) Ltd");
    await form.getByLabel("VAT number").fill("4111222333");
    await form.getByLabel("Billing address").fill("3 Bree Street, Cape Town, 8001");
    await form.getByRole("button", { name: "Save invoice details" }).click();
    await expect(page.getByText(invoiceMessages.detailsSaved)).toBeVisible();
    await page.getByLabel(/^Proof of payment/).setInputFiles({ name: "proof.png", mimeType: "image/png", buffer: makePng(120, 90, 90) });
    await page.getByRole("button", { name: "Complete Payment" }).click();
    await expect(page.getByText(messages.checkout.success(reference))).toBeVisible();

    // The admin confirms the payment: the database issues the invoice with that change.
    const admin = await (await browser.newContext()).newPage();
    await signIn(admin, DEMO_ADMIN);
    await admin.goto(`/admin/orders?q=${reference}`);
    const card = admin.getByTestId("order-card").filter({ hasText: reference });
    await card.getByLabel("Status").selectOption("pending_delivery");
    await expect(admin.getByText(messages.adminOrders.updated(reference, "Pending Delivery"))).toBeVisible();
    const adminLink = card.getByTestId("invoice-links").getByRole("link");
    await expect(adminLink).toHaveText(/^Invoice INV-\d{6} \(PDF\)$/);

    // The customer downloads it from the purchase history: the original.
    await page.goto("/profile");
    const link = page.getByTestId("invoice-links").getByRole("link").first();
    const [first] = await Promise.all([page.waitForEvent("download"), link.click()]);
    const text = await pdfText(first);
    expect(text).toContain("Invoice");
    expect(text).toContain(reference);
    expect(text).toContain("Ayanda");
    expect(text).not.toContain("Copy");

    // The admin's download is the second: a copy.
    const [second] = await Promise.all([admin.waitForEvent("download"), adminLink.click()]);
    expect(await pdfText(second)).toContain("Copy");
  });

  test("the overview: first in the admin navigation, readable at 390 px and 1280 px, axe clean, chart and numbers as text", async ({ page }, testInfo) => {
    await signIn(page, DEMO_ADMIN);
    await page.goto("/admin/orders");
    const nav = page.getByRole("navigation", { name: "Admin" }).getByRole("link");
    await expect(nav.first()).toHaveText("Overview");
    await nav.first().click();
    await expect(page).toHaveURL(/\/admin\/overview/);
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      await page.goto("/admin/overview");
      await expect(page.getByRole("heading", { name: "Overview", level: 1 })).toBeVisible();
      await expect(page.getByTestId("figure-today")).toContainText(/R\d+\.\d{2}/);
      await expect(page.getByTestId("figure-week")).toContainText("last week");
      await expect(page.getByTestId("figure-outstanding")).toBeVisible();
      await expect(page.getByTestId("revenue-chart")).toBeVisible();
      // The chart's numbers as a table for screen readers: one row per day of the 30-day range.
      await expect(page.getByRole("table", { name: /Revenue per day/ }).getByRole("row")).toHaveCount(31);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `overflows at ${width}px`).toBeLessThanOrEqual(0);
      await page.screenshot({ path: testInfo.outputPath(`overview-${width}.png`), fullPage: true });
      await noSeriousAxeViolations(page, `overview at ${width}px`);
    }

    // A chosen range, and its CSV.
    await page.getByLabel("From", { exact: true }).fill("2026-01-01");
    await page.getByLabel("To", { exact: true }).fill("2026-01-07");
    await page.getByRole("button", { name: "Show", exact: true }).click();
    await expect(page).toHaveURL(/from=2026-01-01&to=2026-01-07/);
    await expect(page.getByRole("table", { name: /Revenue per day/ }).getByRole("row")).toHaveCount(8);
    const [csv] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download CSV" }).click()]);
    expect(csv.suggestedFilename()).toBe("sales-2026-01-01-to-2026-01-07.csv");
    expect(fs.readFileSync((await csv.path())!, "utf8")).toMatch(/^\uFEFFDate,Reference,Customer/);
  });
});
