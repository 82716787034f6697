import type { Page } from "@playwright/test";
import { expect, test } from "./test";
import { messages } from "../../src/lib/messages";
import { makePng } from "../helpers/images";
import { DEMO_ADMIN, newCustomerAtCheckout, signIn } from "./fixtures";

const m = messages.adminNotices;

/** An admin on the product dashboard, with the page's live subscription open. */
async function adminOnDashboard(page: Page) {
  const subscribed = page.waitForResponse((response) => response.url().includes("/api/trpc/live.changes"));
  await signIn(page, DEMO_ADMIN);
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
  await subscribed;
  await expect(page).toHaveTitle(/^Dashboard · /);
}

/** A new customer who orders one Branded Cap (R95.50), in a browser of their own; returns the order's reference. */
async function newCustomerOrders(page: Page, fullName: string): Promise<string> {
  const reference = await newCustomerAtCheckout(page, fullName, "notice");
  await page.getByLabel(/^Proof of payment/).setInputFiles({ name: "proof.png", mimeType: "image/png", buffer: makePng(120, 90, 90) });
  await page.getByRole("button", { name: "Complete Payment" }).click();
  await expect(page.getByText(messages.checkout.success(reference))).toBeVisible();
  return reference;
}

test.describe("admin notices", () => {
  test("an admin on the dashboard is told of a customer's new order: a toast, a count on Orders and in the title, until Orders is opened", async ({ page, browser }) => {
    await adminOnDashboard(page);
    const adminNav = page.getByRole("navigation", { name: "Admin" });
    const heading = page.getByRole("heading", { name: "Product management" });
    const headingBefore = await heading.boundingBox();

    const shopper = await (await browser.newContext()).newPage();
    const reference = await newCustomerOrders(shopper, "Thandi Nkosi");

    const notice = page.getByTestId("admin-notice");
    await expect(notice).toHaveCount(1);
    await expect(notice).toContainText(m.newOrder(reference, "Thandi Nkosi", "R95.50"));
    await expect(adminNav.getByRole("link", { name: `Orders 1 ${m.unseen}` })).toBeVisible();
    await expect(page).toHaveTitle(/^\(1\) Dashboard · /);
    // The toast sits over the page: the dashboard did not move for it (nor for the count).
    expect(await heading.boundingBox()).toEqual(headingBefore);
    await notice.getByRole("button", { name: m.dismiss }).click();
    await expect(notice).toHaveCount(0);
    // Still unseen after the toast is gone, and after a reload of the tab.
    await page.reload();
    await expect(adminNav.getByTestId("unseen-orders")).toHaveText(`1 ${m.unseen}`);
    await expect(page).toHaveTitle(/^\(1\) Dashboard · /);

    await adminNav.getByRole("link", { name: /^Orders/ }).click();
    await expect(page).toHaveURL(/\/admin\/orders$/);
    await expect(page.getByTestId("order-card").filter({ hasText: reference })).toBeVisible();
    await expect(adminNav.getByTestId("unseen-orders")).toHaveCount(0);
    await expect(page).toHaveTitle(/^Orders · /);
    await adminNav.getByRole("link", { name: "Dashboard" }).click();
    await expect(page).toHaveTitle(/^Dashboard · /);
    await expect(adminNav.getByTestId("unseen-orders")).toHaveCount(0);
  });

  test("an admin is told of a visitor's contact message: a toast that hides itself, a count on Messages and in the title, until Messages is opened; the chime is off until turned on, and stays as set", async ({ page, browser }) => {
    await adminOnDashboard(page);
    const adminNav = page.getByRole("navigation", { name: "Admin" });
    const sound = adminNav.getByRole("switch", { name: m.sound });
    await expect(sound).toHaveAttribute("aria-checked", "false");
    await sound.click();
    await expect(sound).toHaveAttribute("aria-checked", "true");

    const visitor = await (await browser.newContext()).newPage();
    await visitor.goto("/contact");
    const form = visitor.getByRole("form", { name: "Send us a message" });
    await form.getByLabel("Name").fill("Sipho");
    await form.getByLabel("Email").fill("sipho@example.test");
    await form.getByLabel("Message").fill("Do you embroider school blazers?");
    await form.getByRole("button", { name: "Send Message" }).click();
    await expect(visitor.getByText(messages.contact.sent("Sipho"))).toBeVisible();

    const notice = page.getByTestId("admin-notice");
    await expect(notice).toContainText(m.newMessage("Sipho"));
    await expect(adminNav.getByRole("link", { name: `Messages 1 ${m.unseen}` })).toBeVisible();
    await expect(page).toHaveTitle(/^\(1\) Dashboard · /);
    // Left alone, the toast goes after about 8 seconds; the count stays.
    await expect(notice).toHaveCount(0, { timeout: 12_000 });
    await expect(adminNav.getByTestId("unseen-messages")).toBeVisible();

    // The chime setting is the browser's: it is still on after a reload.
    await page.reload();
    await expect(sound).toHaveAttribute("aria-checked", "true");
    await sound.click();
    await expect(sound).toHaveAttribute("aria-checked", "false");

    await adminNav.getByRole("link", { name: /^Messages/ }).click();
    await expect(page).toHaveURL(/\/admin\/messages$/);
    await expect(page.getByRole("list", { name: "Messages" }).getByRole("listitem").first()).toContainText("Do you embroider school blazers?");
    await expect(adminNav.getByTestId("unseen-messages")).toHaveCount(0);
    await expect(page).toHaveTitle(/^Messages · /);
  });
});
