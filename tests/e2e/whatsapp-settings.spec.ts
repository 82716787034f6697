import { expect, test } from "./test";
import { goLiveMessages, messages } from "../../src/lib/messages";
import { makePng } from "../helpers/images";
import { DEMO_ADMIN, newCustomerAtCheckout, signIn } from "./fixtures";
import { E2E_WHATSAPP, WHATSAPP_READER } from "./whatsapp-fixture";

/*
 * WhatsApp in Shop settings (issue 40, items 5 and 6): the e2e server starts with WHATSAPP_* set
 * (scripts/e2e-server.ts) and nothing saved. The owner sees WhatsApp on, each secret only as
 * "saved", adds their own number and switches the alerts on, keeping the environment's
 * credentials by leaving the boxes blank; a customer's order then reaches the owner's number on
 * the fake Cloud API as a new-order alert. WhatsApp stays on with the same credentials, so the
 * other specs are unaffected (their messages are to other numbers).
 */

const m = messages.whatsappSettings;
const OWNER = `+2783${String(Date.now()).slice(-7)}`;

async function alertsTo(phone: string): Promise<{ template?: string; parameters: string[] }[]> {
  const response = await fetch(WHATSAPP_READER);
  return ((await response.json()) as { to: string; template?: string; parameters: string[] }[]).filter(
    (message) => message.to === phone.replace(/^\+/, "") && message.template === "new_order_alert",
  );
}

test.describe("WhatsApp in Shop settings", () => {
  test("the owner keeps the server's credentials, adds their number and alerts, and gets a customer's new order on WhatsApp", async ({ page, browser }) => {
    test.setTimeout(120_000);
    await signIn(page, DEMO_ADMIN);
    await page.goto("/admin/settings");
    const form = page.getByRole("form", { name: m.title, exact: true });
    await expect(form.getByTestId("whatsapp-status")).toHaveText(m.statusOn);
    await expect(form.getByLabel(m.enabled)).toBeChecked();
    // The secrets never reach the browser: only whether each is saved.
    await expect(form.getByLabel(m.accessToken, { exact: true })).toHaveValue("");
    await expect(form.getByLabel(m.accessToken, { exact: true })).toHaveAttribute("placeholder", messages.payments.secretKept);
    const html = await page.content();
    for (const secret of Object.values(E2E_WHATSAPP)) expect(html).not.toContain(secret);

    // Alerts need a number, checked as customers' numbers are.
    await form.getByLabel(m.ownerAlerts).check();
    await form.getByRole("button", { name: m.save }).click();
    await expect(form.getByText(m.ownerPhoneRequired).first()).toBeVisible();
    await form.getByLabel(m.ownerPhone).fill("082 12");
    await form.getByRole("button", { name: m.save }).click();
    await expect(form.getByText(messages.consent.invalidPhone).first()).toBeVisible();
    await form.getByLabel(m.ownerPhone).fill(`0${OWNER.slice(3)}`);
    await form.getByRole("button", { name: m.save }).click();
    await expect(form.getByText(m.saved)).toBeVisible();
    await expect(form.getByLabel(m.ownerPhone)).toHaveValue(OWNER);
    await expect(form.getByTestId("whatsapp-status")).toHaveText(m.statusOn);
    await page.reload();
    await expect(page.getByRole("form", { name: m.title, exact: true }).getByLabel(m.ownerAlerts)).toBeChecked();
    await expect(page.getByTestId("go-live")).not.toContainText(goLiveMessages.items.whatsapp.title);

    const shopper = await (await browser.newContext()).newPage();
    const reference = await newCustomerAtCheckout(shopper, "Ayanda Owner-Alert", "owneralert");
    await shopper.getByLabel(/^Proof of payment/).setInputFiles({ name: "eft-slip.png", mimeType: "image/png", buffer: makePng(64, 48) });
    await shopper.getByRole("button", { name: "Complete Payment" }).click();
    await expect(shopper.getByText(messages.checkout.success(reference))).toBeVisible();

    await expect.poll(async () => (await alertsTo(OWNER)).length, { timeout: 20_000 }).toBe(1);
    expect((await alertsTo(OWNER))[0]!.parameters.slice(0, 2)).toEqual([reference, "Ayanda Owner-Alert"]);

    // Switched off again: the next order writes no alert (the other specs' orders do not either).
    await form.getByLabel(m.ownerAlerts).uncheck();
    await page.getByRole("form", { name: m.title, exact: true }).getByRole("button", { name: m.save }).click();
    await expect(page.getByText(m.saved)).toBeVisible();
  });
});
