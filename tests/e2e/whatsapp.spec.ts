import type { Page } from "@playwright/test";
import { expect, test } from "./test";
import { messages } from "../../src/lib/messages";
import { makePng } from "../helpers/images";
import { DEMO_ADMIN, signIn, uniqueEmail } from "./fixtures";
import { inboundText, signedNotification, WHATSAPP_READER } from "./whatsapp-fixture";

/*
 * Order updates on WhatsApp in the browser (issue 40): a customer ticks the choice at checkout,
 * places the order, and the e2e server's fake Cloud API (scripts/e2e-server.ts) records "order
 * received"; the owner marks it paid and the next update arrives there too; the customer sends
 * STOP (a signed webhook post, as Meta sends it), gets one confirmation, and the next update
 * goes by e-mail. Adds one customer and one order of its own, as the checkout specs do.
 */

const MAIL_READER = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 3100) + 52}`;

interface Sent {
  to: string;
  type: "template" | "text";
  template?: string;
  parameters: string[];
  text?: string;
}

async function sentTo(phone: string): Promise<Sent[]> {
  const response = await fetch(WHATSAPP_READER);
  return ((await response.json()) as Sent[]).filter((message) => message.to === phone.replace(/^\+/, ""));
}

async function mailsTo(address: string): Promise<{ to: string[]; subject: string; text: string }[]> {
  const response = await fetch(MAIL_READER);
  return ((await response.json()) as { to: string[]; subject: string; text: string }[]).filter((mail) => mail.to.includes(address));
}

async function setStatus(admin: Page, reference: string, status: string, label: string) {
  await admin.goto(`/admin/orders?q=${reference}`);
  const card = admin.getByTestId("order-card").filter({ hasText: reference });
  await card.getByLabel("Status").selectOption(status);
  await expect(admin.getByText(messages.adminOrders.updated(reference, label))).toBeVisible();
}

test.describe("order updates on WhatsApp", () => {
  test("sign-up offers the two choices unticked; a ticked one is recorded for the new account", async ({ page }) => {
    await page.goto("/auth/signup");
    const choices = page.getByTestId("signup-whatsapp");
    const offers = choices.getByRole("checkbox", { name: new RegExp(`^${messages.consent.offers}`) });
    await expect(choices.getByRole("checkbox", { name: new RegExp(`^${messages.consent.whatsappUpdates}`) })).not.toBeChecked();
    await expect(offers).not.toBeChecked();
    await page.getByLabel("Full name").fill("Lerato Offers");
    await page.getByLabel("Email").fill(uniqueEmail("offers"));
    await page.getByLabel("Password", { exact: true }).fill("offers-pass-2026");
    await page.getByLabel("Confirm password", { exact: true }).fill("offers-pass-2026");
    await page.getByLabel("I agree to the Terms & Privacy Policy").check();
    await offers.check();
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page.getByText(messages.consent.invalidPhone)).toBeVisible();
    await choices.getByLabel(messages.consent.phoneLabel).fill("+44 7911 123456");
    await page.getByRole("button", { name: "Create account" }).click();
    // The choices are recorded before the form moves on to the shop.
    await expect(page).toHaveURL(/\/products$/, { timeout: 10_000 });
    await page.goto("/profile");
    const consent = page.getByTestId("whatsapp-consent");
    await expect(consent.getByRole("checkbox", { name: new RegExp(`^${messages.consent.offers}`) })).toBeChecked();
    await expect(consent.getByRole("checkbox", { name: new RegExp(`^${messages.consent.whatsappUpdates}`) })).not.toBeChecked();
    await expect(consent.getByText("+447911123456")).toBeVisible();
  });

  test("opt in at checkout, get order received and payment confirmed there; STOP, and the next one is an e-mail", async ({ page, browser }) => {
    test.setTimeout(120_000);
    const email = uniqueEmail("whatsapp");
    const phone = `+2782${String(Date.now()).slice(-7)}`;
    await page.goto("/auth/signup");
    await page.getByLabel("Full name").fill("Sipho Ndlovu");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password", { exact: true }).fill("whatsapp-pass-2026");
    await page.getByLabel("Confirm password", { exact: true }).fill("whatsapp-pass-2026");
    await page.getByLabel("I agree to the Terms & Privacy Policy").check();
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page.getByTestId("greeting")).toBeVisible();
    await page.goto("/products?q=Branded%20Cap");
    await page.getByRole("list", { name: "Product list" }).getByRole("link").first().click();
    await expect(page).toHaveURL(/\/products\/[0-9a-f-]{36}$/);
    await page.getByRole("button", { name: "Add to Cart" }).first().click();
    await expect(page.getByText(messages.cart.added("Branded Cap"))).toBeVisible();
    await page.goto("/checkout");
    const reference = (await page.getByTestId("payment-reference").textContent())!;

    // The two choices are there, unticked; the number is checked before anything is recorded.
    const consent = page.getByTestId("whatsapp-consent");
    const updates = consent.getByRole("checkbox", { name: new RegExp(`^${messages.consent.whatsappUpdates}`) });
    await expect(updates).not.toBeChecked();
    await expect(consent.getByRole("checkbox", { name: new RegExp(`^${messages.consent.offers}`) })).not.toBeChecked();
    await consent.getByLabel(messages.consent.phoneLabel).fill("082 12");
    await updates.click();
    await expect(consent.getByText(messages.consent.invalidPhone)).toBeVisible();
    await expect(updates).not.toBeChecked();
    await consent.getByLabel(messages.consent.phoneLabel).fill(`0${phone.slice(3)}`);
    await updates.click();
    await expect(consent.getByText(messages.consent.saved)).toBeVisible();
    await expect(updates).toBeChecked();

    await page.getByLabel(/^Proof of payment/).setInputFiles({ name: "eft-slip.png", mimeType: "image/png", buffer: makePng(64, 48) });
    await page.getByRole("button", { name: "Complete Payment" }).click();
    await expect(page.getByText(messages.checkout.success(reference))).toBeVisible();

    await expect.poll(async () => (await sentTo(phone)).map((message) => message.template), { timeout: 20_000 }).toEqual(["order_received"]);
    expect((await sentTo(phone))[0]!.parameters.slice(0, 2)).toEqual(["Sipho Ndlovu", reference]);

    // The owner marks the transfer received: "payment confirmed" goes there too, and no order mail to the customer.
    const admin = await (await browser.newContext()).newPage();
    await signIn(admin, DEMO_ADMIN);
    await setStatus(admin, reference, "pending_delivery", "Pending Delivery");
    await expect.poll(async () => (await sentTo(phone)).map((message) => message.template), { timeout: 20_000 }).toEqual(["order_received", "payment_confirmed"]);
    expect((await sentTo(phone))[1]!.parameters).toContain(reference);
    expect(await mailsTo(email)).toEqual([]);

    // STOP, as Meta posts it: confirmed once; the profile shows the choice unticked.
    const { body, signature } = signedNotification(inboundText(phone, "Stop."));
    const wrong = await page.request.post("/api/messaging/whatsapp", { data: body, headers: { "content-type": "application/json", "x-hub-signature-256": `sha256=${"0".repeat(64)}` } });
    expect(wrong.status()).toBe(401);
    const stop = await page.request.post("/api/messaging/whatsapp", { data: body, headers: { "content-type": "application/json", "x-hub-signature-256": signature } });
    expect(stop.status()).toBe(200);
    await expect.poll(async () => (await sentTo(phone)).map((message) => message.text ?? message.template), { timeout: 20_000 }).toEqual([
      "order_received",
      "payment_confirmed",
      messages.whatsapp.stopConfirmed,
    ]);
    await page.goto("/profile");
    await expect(page.getByTestId("whatsapp-consent").getByRole("checkbox", { name: new RegExp(`^${messages.consent.whatsappUpdates}`) })).not.toBeChecked();

    // The next update is an e-mail, and nothing more on WhatsApp.
    await setStatus(admin, reference, "complete", "Complete");
    await expect.poll(async () => (await mailsTo(email)).length, { timeout: 20_000 }).toBe(1);
    expect((await mailsTo(email))[0]!.text).toContain("Complete");
    expect(await sentTo(phone)).toHaveLength(3);
    await admin.context().close();
  });
});
