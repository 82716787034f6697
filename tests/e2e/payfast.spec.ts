import type { Page } from "@playwright/test";
import { expect, test } from "./test";
import { messages } from "../../src/lib/messages";
import { SANDBOX_MERCHANT } from "../helpers/fake-payfast";
import { DEMO_ADMIN, newCustomerAtCheckout, signIn } from "./fixtures";

/**
 * "Pay now" end to end, against the fake PayFast the e2e server runs on its port + 50
 * (scripts/e2e-server.ts): the owner sets PayFast up in Shop settings, a customer pays on the
 * hosted page, PayFast's ITN pays the order, the customer comes back to a paid order, and the
 * admin sees it live. A customer who cancels on PayFast's page can pay again.
 */

const m = messages.payments;
const FAKE_PAYFAST = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 3100) + 50}`;

async function savePayFast(page: Page, merchantId: string, secrets: { key: string; passphrase: string } | null) {
  await page.goto("/admin/settings");
  const form = page.getByRole("form", { name: m.settingsTitle });
  await form.getByLabel("Merchant ID").fill(merchantId);
  if (secrets) {
    await form.getByLabel("Merchant key").fill(secrets.key);
    await form.getByLabel("Passphrase").fill(secrets.passphrase);
    await form.getByLabel(/^Sandbox/).check();
  }
  await form.getByRole("button", { name: "Save payment settings" }).click();
  await expect(form.getByText(m.settingsSaved)).toBeVisible();
}

test.describe("paying online through PayFast", () => {
  test.beforeAll(async ({ browser }) => {
    // The owner sets PayFast up under Shop settings, as docs/payments.md says.
    const page = await (await browser.newContext()).newPage();
    await signIn(page, DEMO_ADMIN);
    await savePayFast(page, SANDBOX_MERCHANT.merchantId, { key: SANDBOX_MERCHANT.merchantKey, passphrase: SANDBOX_MERCHANT.passphrase });
  });

  test.afterAll(async ({ browser }) => {
    // Bank transfer only again, for the other tests.
    const page = await (await browser.newContext()).newPage();
    await signIn(page, DEMO_ADMIN);
    await savePayFast(page, "", null);
  });

  test("PayFast set up; a customer pays now, comes back to a paid order, and the admin sees it paid, live", async ({ page, browser }) => {
    await signIn(page, DEMO_ADMIN);
    // The secrets are never sent back to the browser.
    await page.goto("/admin/settings");
    const form = page.getByRole("form", { name: m.settingsTitle });
    await expect(form.getByLabel("Merchant key")).toHaveValue("");
    await expect(form.getByLabel("Merchant key")).toHaveAttribute("placeholder", m.secretKept);
    expect(await page.content()).not.toContain(SANDBOX_MERCHANT.passphrase);

    await page.goto("/admin/orders");
    const cards = page.getByTestId("order-card");
    await expect(cards.first()).toBeVisible();

    const shopper = await (await browser.newContext()).newPage();
    const reference = await newCustomerAtCheckout(shopper, "Ayanda Dlamini", "payfast");
    await shopper.getByRole("radio", { name: m.payNowOption }).check();
    await shopper.getByRole("button", { name: m.payNowButton }).click();
    // PayFast takes the payment, notifies the shop, and sends the customer back.
    await expect(shopper).toHaveURL(/\/checkout\/return\?order=/);
    await expect(shopper.getByTestId("payment-outcome")).toHaveText(m.paid(reference));
    await shopper.goto("/profile");
    await expect(shopper.getByTestId("paid-online")).toHaveText(m.paidBy("PayFast"));

    // The admin's open Order Management shows the order, paid online, without a reload.
    const card = cards.filter({ hasText: reference });
    await expect(card).toBeVisible();
    await expect(card.getByTestId("paid-online-badge")).toHaveText(m.paidBy("PayFast"));
    await expect(card.getByTestId("order-payments")).toContainText("R95.50");
    await expect(card.getByLabel("Status")).toHaveValue("pending_delivery");
  });

  test("a customer who cancels on PayFast's page can pay again, and the order is paid once", async ({ page }) => {
    const reference = await newCustomerAtCheckout(page, "Sipho Khumalo", "payfast-cancel");
    await page.getByRole("radio", { name: m.payNowOption }).check();
    await page.request.post(`${FAKE_PAYFAST}/__control/cancel-next`);
    await page.getByRole("button", { name: m.payNowButton }).click();
    await expect(page).toHaveURL(/\/checkout\/cancelled\?order=/);
    await expect(page.getByTestId("payment-outcome")).toHaveText(m.cancelled(reference));
    // The cart was emptied by the order, which waits for payment.
    await page.getByRole("button", { name: m.payAgain }).click();
    await expect(page).toHaveURL(/\/checkout\/return\?order=/);
    await expect(page.getByTestId("payment-outcome")).toHaveText(m.paid(reference));
  });
});
