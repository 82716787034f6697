import type { Browser, Page } from "@playwright/test";
import { expect, test } from "../e2e/test";
import { LIVE_JOIN_GRACE_MS, LIVE_POLL_MS } from "../../src/lib/constants";
import { liveMessages, messages } from "../../src/lib/messages";
import { makePng } from "../helpers/images";
import { addProduct, DEMO_ADMIN, fakeSupabase, sessionUserId, signIn, signUp } from "./fixtures";

/** The fake's changes reach browsers through Realtime's WebSocket, as on Supabase. */
async function realtimeJoined(userId: string) {
  await expect.poll(async () => (await fakeSupabase.realtimeState()).joined, { message: "the tab's live channel joined Realtime" }).toContain(`realtime:shop-live-${userId}`);
}

/** A new customer who ordered one Branded Cap; returns the order's reference. */
async function customerWithOrder(page: Page): Promise<string> {
  await signUp(page, "live");
  await addProduct(page, "Branded Cap");
  await page.goto("/checkout");
  const reference = (await page.getByTestId("payment-reference").textContent())!;
  await page.getByLabel(/^Proof of payment/).setInputFiles({ name: "proof.png", mimeType: "image/png", buffer: makePng(64, 48) });
  await page.getByRole("button", { name: "Complete Payment" }).click();
  await expect(page.getByText(messages.checkout.success(reference))).toBeVisible();
  return reference;
}

async function adminOn(browser: Browser, path: string): Promise<Page> {
  const admin = await (await browser.newContext()).newPage();
  await signIn(admin, DEMO_ADMIN);
  await admin.goto(path);
  return admin;
}

const pausedStatus = (page: Page) => page.getByRole("status").filter({ hasText: liveMessages.paused(LIVE_POLL_MS / 1000) });

test.describe("live updates through Supabase Realtime", () => {
  test.beforeEach(async () => {
    await fakeSupabase.setRealtimeUp(true);
  });
  test.afterEach(async () => {
    await fakeSupabase.setRealtimeUp(true);
  });

  test("with Realtime up, an order's new status reaches the customer's open profile through the WebSocket", async ({ page, browser }) => {
    const reference = await customerWithOrder(page);
    await page.goto("/profile");
    const status = page.getByRole("list", { name: "Orders" }).getByTestId("order-status").first();
    await expect(status).toHaveText(messages.orderStatus.pending_payment);
    await realtimeJoined(await sessionUserId(page));

    const admin = await adminOn(browser, "/admin/orders");
    const card = admin.getByTestId("order-card").filter({ hasText: reference });
    await card.getByLabel("Status").selectOption("pending_delivery");
    await expect(admin.getByText(messages.adminOrders.updated(reference, "Pending Delivery"))).toBeVisible();
    await expect(pausedStatus(admin)).toHaveCount(0);

    // Pushed, not polled: well inside one polling interval.
    await expect(status).toHaveText(messages.orderStatus.pending_delivery, { timeout: 5_000 });
  });

  test("with Realtime refusing, a cart change in one tab reaches another by polling, and an admin is told updates are paused", async ({ page, browser, context }) => {
    await fakeSupabase.setRealtimeUp(false);
    await signUp(page, "polling");
    const second = await context.newPage();
    await second.goto("/cart");
    await expect(second.getByText(messages.cart.empty)).toBeVisible();
    // Past the join's grace period: the tab has given up waiting for Realtime and polls.
    await second.waitForTimeout(LIVE_JOIN_GRACE_MS + 1_000);

    await addProduct(page, "Lunchbox Treats");
    const changedAt = Date.now();
    const line = second.getByRole("list", { name: "Cart items" }).getByRole("listitem").filter({ hasText: "Lunchbox Treats Box" });
    await expect(line.getByTestId("quantity")).toHaveText("1", { timeout: LIVE_POLL_MS + 1_000 });
    expect(Date.now() - changedAt).toBeLessThanOrEqual(LIVE_POLL_MS + 1_000);

    const admin = await adminOn(browser, "/admin/orders");
    await expect(pausedStatus(admin)).toBeVisible({ timeout: LIVE_JOIN_GRACE_MS + 5_000 });
    expect((await fakeSupabase.realtimeState()).openSockets).toBe(0);
  });

  test("when Realtime comes back, the admin's paused status goes and changes are pushed again", async ({ browser }) => {
    await fakeSupabase.setRealtimeUp(false);
    const admin = await adminOn(browser, "/admin/orders");
    await expect(pausedStatus(admin)).toBeVisible({ timeout: LIVE_JOIN_GRACE_MS + 5_000 });
    await fakeSupabase.setRealtimeUp(true);
    // realtime-js tries again on the shop's back-off (1, 2, 5, 10, then every 30 s).
    await expect(pausedStatus(admin)).toHaveCount(0, { timeout: 40_000 });
    await realtimeJoined(await sessionUserId(admin));
  });
});
