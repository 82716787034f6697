import type { Page } from "@playwright/test";
import { expect, test } from "./test";
import { goLiveMessages, messages } from "../../src/lib/messages";
import { DEMO_VALUES } from "../../src/server/settings/demo-values";
import { GO_LIVE_ITEMS, type GoLiveItem } from "../../src/lib/constants";
import { SANDBOX_MERCHANT } from "../helpers/fake-payfast";
import { CONFIGURED_BANK } from "../helpers/shop-settings";
import { DEMO_ADMIN, signIn } from "./fixtures";

/**
 * The go-live checklist (issue 34) on the production build (scripts/e2e-server.ts): the shop
 * starts with the demo contact details, officer and invoice details and SITE_URL on plain http; it
 * sends mail (SMTP_URL names its loopback SMTP server), so "mail" is not listed here (without
 * SMTP_URL it is: tests/api/go-live.test.ts). The owner turns on the rest of the demo values (the demo bank account, collection
 * at the demo address, PayFast's sandbox): Shop settings names every item with a link to its
 * field, every admin page's banner counts them, and fixing one takes it off both. Visitors never
 * see a demo detail as the business's own.
 */

const s = messages.settings;
const f = messages.fulfilment;
const p = messages.payments;

/** What the server itself starts with: the e2e server seeds a real-looking bank account, collection off, no PayFast. */
const AT_START: GoLiveItem[] = ["phone", "email", "address", "informationOfficer", "invoiceDetails", "siteUrl"];
/** Every item this server can list: all but "mail" and "whatsapp" (it sends mail and has all of WhatsApp's settings, scripts/e2e-server.ts). */
const LISTABLE = GO_LIVE_ITEMS.filter((item) => item !== "mail" && item !== "whatsapp");

async function listed(page: Page): Promise<string[]> {
  const ids = await page.getByTestId("go-live").getByRole("listitem").evaluateAll((items) => items.map((item) => item.getAttribute("data-testid") ?? ""));
  return ids.map((id) => id.replace(/^go-live-/, ""));
}

async function saveShopSettings(page: Page, fields: Record<string, string>) {
  await page.goto("/admin/settings");
  const form = page.getByRole("form", { name: s.title });
  for (const [label, value] of Object.entries(fields)) await form.getByLabel(label, { exact: true }).fill(value);
  await form.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByText(s.saved)).toBeVisible();
}

async function saveCollection(page: Page, on: boolean, address: string) {
  await page.goto("/admin/settings");
  const section = page.getByTestId("fulfilment-settings");
  await section.getByLabel("Collection address").fill(address);
  await section.getByLabel("Customers can collect their orders").setChecked(on);
  await section.getByRole("button", { name: "Save delivery and collection" }).click();
  await expect(section.getByText(f.settingsSaved)).toBeVisible();
}

async function savePayFast(page: Page, sandbox: boolean) {
  await page.goto("/admin/settings");
  const form = page.getByRole("form", { name: p.settingsTitle });
  await form.getByLabel("Merchant ID").fill(sandbox ? SANDBOX_MERCHANT.merchantId : "");
  if (sandbox) {
    await form.getByLabel("Merchant key").fill(SANDBOX_MERCHANT.merchantKey);
    await form.getByLabel(/^Sandbox/).check();
  }
  await form.getByRole("button", { name: "Save payment settings" }).click();
  await expect(form.getByText(p.settingsSaved)).toBeVisible();
}

test.describe("before going live", () => {
  test.afterAll(async ({ browser }) => {
    // The shop as the other tests expect it: the real-looking bank account, collection off, no PayFast, the demo phone.
    const page = await (await browser.newContext()).newPage();
    await signIn(page, DEMO_ADMIN);
    await saveShopSettings(page, { "Account number": CONFIGURED_BANK.bankAccountNumber, "Shop phone": DEMO_VALUES.phone });
    await saveCollection(page, false, "");
    await savePayFast(page, false);
  });

  test("a visitor sees no demo contact detail and no stand-in officer", async ({ page }) => {
    await page.goto("/contact");
    await expect(page.getByRole("heading", { name: "Our details" })).toBeVisible();
    for (const demo of [DEMO_VALUES.phone, DEMO_VALUES.email, DEMO_VALUES.address]) {
      await expect(page.getByText(demo)).toHaveCount(0);
    }
    // The hours are the opening hours, worded from the same rows as the days checkout offers.
    await expect(page.getByTestId("footer-contact")).toContainText("Mon–Fri 09:00–16:00");
    await page.goto("/privacy");
    const officer = page.locator("#information-officer");
    await expect(officer).toContainText("Responsible party: Our World Services");
    await expect(officer).not.toContainText(DEMO_VALUES.informationOfficerName);
  });

  test("Shop settings names every setting still demo or missing; the banner counts them on every admin page; fixing one removes it", async ({ page }, testInfo) => {
    await signIn(page, DEMO_ADMIN);
    await page.goto("/admin/settings");
    await expect(page.getByTestId("go-live").getByRole("heading", { name: goLiveMessages.title })).toBeVisible();
    expect(await listed(page)).toEqual(AT_START);

    // The rest of the demo values: the demo bank account, collection at the demo address, PayFast's sandbox.
    await saveShopSettings(page, { "Account number": DEMO_VALUES.bank.accountNumber });
    await saveCollection(page, true, DEMO_VALUES.address);
    await savePayFast(page, true);
    await page.goto("/admin/settings");
    expect(await listed(page)).toEqual([...LISTABLE]);
    for (const item of LISTABLE) await expect(page.getByTestId(`go-live-${item}`)).toContainText(goLiveMessages.items[item].title);
    await page.screenshot({ path: testInfo.outputPath("go_live_checklist.png"), fullPage: true });

    // Each link leads to a field on this page that exists; SITE_URL is set on the server.
    for (const item of LISTABLE) {
      const link = page.getByTestId(`go-live-${item}`).getByRole("link");
      if (item === "siteUrl") {
        await expect(link).toHaveCount(0);
        continue;
      }
      const href = (await link.getAttribute("href")) ?? "";
      await expect(page.locator(href.replace("/admin/settings", "")), `${item} → ${href}`).toHaveCount(1);
    }

    // Every admin page says so, first that checkout takes no orders.
    for (const path of ["/admin/dashboard", "/admin/orders", "/admin/messages"]) {
      await page.goto(path);
      const banner = page.getByTestId("settings-banner");
      await expect(banner).toContainText(s.bankNotSetUp);
      await expect(banner).toContainText(goLiveMessages.banner(LISTABLE.length));
      await expect(banner.getByRole("link", { name: "Open Shop settings" })).toHaveAttribute("href", "/admin/settings");
    }

    // Fixing one takes it off the list and the count, at once.
    await page.goto("/admin/settings");
    await page.getByTestId("go-live-phone").getByRole("link", { name: /^Fix/ }).click();
    await expect(page.locator("#settings-phone")).toBeInViewport();
    await page.locator("#settings-phone").fill("+27 21 555 0100");
    await page.getByRole("form", { name: s.title }).getByRole("button", { name: "Save settings" }).click();
    await expect(page.getByText(s.saved)).toBeVisible();
    await expect(page.getByTestId("go-live-phone")).toHaveCount(0);
    expect(await listed(page)).toEqual(LISTABLE.filter((item) => item !== "phone"));
    await expect(page.getByTestId("settings-banner")).toContainText(goLiveMessages.banner(LISTABLE.length - 1));

    // The real phone is shown to visitors at once.
    await page.goto("/contact");
    await expect(page.getByTestId("footer-contact")).toContainText("+27 21 555 0100");
  });
});
