import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect, test } from "./test";
import { messages } from "../../src/lib/messages";
import { CONFIGURED_BANK } from "../helpers/shop-settings";
import { DEMO_ADMIN, DEMO_CUSTOMER, signIn } from "./fixtures";

const m = messages.settings;
/** The demo account's number: in production (this server) it takes no orders. */
const DEMO_ACCOUNT_NUMBER = "62812345678";

async function saveSettings(page: Page, fields: Record<string, string>) {
  await page.goto("/admin/settings");
  const form = page.getByRole("form", { name: m.title });
  for (const [label, value] of Object.entries(fields)) await form.getByLabel(label, { exact: true }).fill(value);
  await form.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByText(m.saved)).toBeVisible();
}

test.describe("shop settings", () => {
  test("an admin changes the bank account and the phone number; checkout and a visitor's contact page show them at once", async ({ page, browser }) => {
    // A visitor's contact page is kept as rendered HTML: load it twice so it is kept.
    const visitor = await (await browser.newContext()).newPage();
    await visitor.goto("/contact");
    await visitor.goto("/contact");
    // In production the demo number is not shown as the shop's own (issue 34).
    await expect(visitor.getByRole("heading", { name: "Our details" })).toBeVisible();
    await expect(visitor.getByText("+27 11 555 0142")).toHaveCount(0);

    await signIn(page, DEMO_ADMIN);
    await page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Shop settings" }).click();
    await expect(page).toHaveURL(/\/admin\/settings$/);
    const form = page.getByRole("form", { name: m.title });
    await expect(form.getByLabel("Account number", { exact: true })).toHaveValue(CONFIGURED_BANK.bankAccountNumber);

    // The shared schema speaks first, under the field, and nothing is saved.
    await form.getByLabel("Account number", { exact: true }).fill("62 ABC");
    await form.getByRole("button", { name: "Save settings" }).click();
    await expect(form.getByLabel("Account number", { exact: true })).toHaveAttribute("aria-invalid", "true");
    await expect(form.getByText(m.accountNumberInvalid).first()).toBeVisible();

    await form.getByLabel("Account number", { exact: true }).fill("6200 1234 567");
    await form.getByLabel("Shop phone", { exact: true }).fill("+27 21 555 0100");
    await form.getByRole("button", { name: "Save settings" }).click();
    await expect(page.getByText(m.saved)).toBeVisible();
    await expect(form.getByLabel("Account number", { exact: true })).toHaveValue("62001234567");

    await visitor.goto("/contact");
    await expect(visitor.getByText("+27 21 555 0100").first()).toBeVisible();
    await expect(visitor.getByTestId("footer-contact")).toContainText("+27 21 555 0100");

    const shopper = await (await browser.newContext()).newPage();
    await signIn(shopper, DEMO_CUSTOMER);
    await shopper.goto("/checkout");
    await expect(shopper.getByTestId("bank-account-number")).toHaveText("62001234567");
    await expect(shopper.getByTestId("demo-bank")).toHaveCount(0);

    await saveSettings(page, { "Account number": CONFIGURED_BANK.bankAccountNumber, "Shop phone": "+27 11 555 0142" });
  });

  test("in production the demo account takes no orders, and every admin page says where to fix it", async ({ page, browser }, testInfo) => {
    await signIn(page, DEMO_ADMIN);
    await saveSettings(page, { "Account number": DEMO_ACCOUNT_NUMBER });
    await expect(page.getByTestId("settings-banner")).toContainText(m.bankNotSetUp);
    for (const path of ["/admin/dashboard", "/admin/orders", "/admin/messages"]) {
      await page.goto(path);
      await expect(page.getByTestId("settings-banner").getByRole("link", { name: "Open Shop settings" })).toHaveAttribute("href", "/admin/settings");
    }
    await page.screenshot({ path: testInfo.outputPath("admin_banner.png") });

    const shopper = await (await browser.newContext()).newPage();
    await signIn(shopper, DEMO_CUSTOMER);
    await shopper.goto("/checkout");
    await expect(shopper.getByTestId("bank-not-set-up")).toHaveText(messages.checkout.bankTransferNotSetUp);
    await expect(shopper.getByTestId("bank-details")).toHaveCount(0);
    await expect(shopper.getByRole("button", { name: "Complete Payment" })).toHaveCount(0);
    await shopper.screenshot({ path: testInfo.outputPath("checkout_not_set_up.png"), fullPage: true });

    await saveSettings(page, { "Account number": CONFIGURED_BANK.bankAccountNumber });
    // The banner stays for the go-live checklist's other items (go-live.spec.ts), without the bank's warning.
    await expect(page.getByTestId("settings-banner")).not.toContainText(m.bankNotSetUp);
    await shopper.goto("/checkout");
    await expect(shopper.getByTestId("bank-account-number")).toHaveText(CONFIGURED_BANK.bankAccountNumber);
  });

  test("the settings page has no serious or critical axe violations and fits 390 px and 1280 px", async ({ page }, testInfo) => {
    await signIn(page, DEMO_ADMIN);
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      await page.goto("/admin/settings");
      await expect(page.getByRole("form", { name: m.title })).toBeVisible();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `overflows at ${width}px`).toBeLessThanOrEqual(0);
      await page.screenshot({ path: testInfo.outputPath(`${width}_admin_settings.png`), fullPage: true });
    }
    const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]).analyze();
    const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
    expect(serious.map((v) => `${v.id} ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
  });
});
