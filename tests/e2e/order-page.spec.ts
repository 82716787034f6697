import { expect, test } from "./test";
import { messages, orderPageMessages } from "../../src/lib/messages";
import { makePng } from "../helpers/images";
import { DEMO_ADMIN, DEMO_CUSTOMER, newCustomerAtCheckout, signIn, uniqueEmail } from "./fixtures";

const TRANSFER_HINT = "Use the reference above with your transfer, then upload your proof of payment.";

test.describe("an order's own page", () => {
  test("after paying: the order stays on screen until the move, Back shows no spent reference, and the order has its page, for its customer only", async ({ page, browser }, testInfo) => {
    // One customer's order followed from checkout to paid, with three other browsers: longer than one page's test.
    test.setTimeout(90_000);
    const reference = await newCustomerAtCheckout(page, "Naledi Order", "orderpage");
    await page.getByLabel(/^Proof of payment/).setInputFiles({ name: "slip.png", mimeType: "image/png", buffer: makePng(16, 16) });
    await page.getByRole("button", { name: "Complete Payment" }).click();
    await expect(page.getByText(messages.checkout.success(reference))).toBeVisible();

    // What was ordered stays under the success message (the cart is empty by now) until the move to /products.
    const summary = page.getByTestId("ordered-summary");
    await expect(summary).toContainText("Branded Cap");
    await expect(summary.getByTestId("checkout-total")).toHaveText("R95.50");
    await page.waitForTimeout(3_500);
    await expect(page).toHaveURL(/\/checkout$/);
    await expect(summary).toContainText("Branded Cap");
    await expect(page).toHaveURL(/\/products$/, { timeout: 10_000 });

    // Back: the empty cart, no reference offered to pay with, and the way to the order just placed.
    await page.goBack();
    await expect(page).toHaveURL(/\/checkout$/);
    await expect(page.getByText(messages.cart.empty)).toBeVisible();
    await expect(page.getByTestId("payment-reference")).toHaveCount(0);
    await expect(page.getByText(reference, { exact: true })).toHaveCount(0);
    await expect(page.getByText(TRANSFER_HINT)).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Complete Payment" })).toBeDisabled();
    await page.getByTestId("last-order").getByRole("link", { name: orderPageMessages.lastOrder(reference) }).click();

    // The order's page: lines, total, reference and bank details while unpaid, its status and history.
    await expect(page).toHaveURL(new RegExp(`/profile/orders/${reference}$`));
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(orderPageMessages.title(reference));
    await expect(page.getByRole("table", { name: "Order lines" }).getByRole("row", { name: /Branded Cap/ })).toContainText("R95.50");
    await expect(page.getByTestId("order-total")).toHaveText("Total R95.50");
    await expect(page.getByTestId("order-status")).toHaveText(messages.orderStatus.pending_payment);
    await expect(page.getByTestId("bank-details")).toBeVisible();
    await expect(page.getByTestId("order-reference")).toHaveText(reference);
    await expect(page.getByText(orderPageMessages.proofReceived)).toBeVisible();
    await expect(page.getByTestId("status-history")).toContainText(messages.orderStatus.pending_payment);

    await page.screenshot({ path: testInfo.outputPath("order_page_unpaid.png"), fullPage: true });

    // From the purchase history.
    await page.goto("/profile");
    await page.getByRole("list", { name: "Orders" }).getByRole("link", { name: reference, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/profile/orders/${reference}$`));
    await expect(page.getByTestId("order-reference")).toHaveText(reference);

    // Another customer: not found, as an order that does not exist.
    const other = await (await browser.newContext()).newPage();
    await other.goto("/auth/signup");
    await other.getByLabel("Full name").fill("Someone Else");
    await other.getByLabel("Email").fill(uniqueEmail("other"));
    await other.getByLabel("Password", { exact: true }).fill("someone-else-2026");
    await other.getByLabel("Confirm password", { exact: true }).fill("someone-else-2026");
    await other.getByLabel("I agree to the Terms & Privacy Policy").check();
    await other.getByRole("button", { name: "Create account" }).click();
    await expect(other.getByTestId("greeting")).toBeVisible();
    const response = await other.goto(`/profile/orders/${reference}`);
    expect(response?.status()).toBe(404);
    await expect(other.getByRole("heading", { name: "Page not found" })).toBeVisible();
    await expect(other.getByText("Branded Cap")).toHaveCount(0);
    await other.context().close();

    // An admin may open it too, and marks it paid: the customer's page follows live, without a reload.
    const admin = await (await browser.newContext()).newPage();
    await signIn(admin, DEMO_ADMIN);
    await admin.goto(`/profile/orders/${reference}`);
    await expect(admin.getByTestId("order-reference")).toHaveText(reference);
    await expect(admin.getByRole("button", { name: orderPageMessages.uploadProof })).toHaveCount(0);
    await admin.goto(`/admin/orders?q=${reference}`);
    await admin.getByTestId("order-card").filter({ hasText: reference }).getByLabel("Status").selectOption("pending_delivery");
    await expect(admin.getByText(messages.adminOrders.updated(reference, "Pending Delivery"))).toBeVisible();
    await admin.context().close();
    await expect(page.getByTestId("order-status")).toHaveText(messages.orderStatus.pending_delivery, { timeout: 10_000 });
    await expect(page.getByTestId("bank-details")).toHaveCount(0);
    await expect(page.getByTestId("status-history")).toContainText(messages.orderStatus.pending_delivery);
    await expect(page.getByTestId("invoice-links")).toBeVisible();

    // A visitor is sent to sign in first, and comes back to the order.
    const visitor = await (await browser.newContext()).newPage();
    await visitor.goto(`/profile/orders/${reference}`);
    await expect(visitor).toHaveURL(/\/auth\/signin\?next=%2Fprofile%2Forders%2FORD-\d+&reason=profile$/);
    await visitor.context().close();
  });
});

test.describe("sign-in", () => {
  test("'Sign-in successful ✅' is shown on the page sign-in lands on, for 3 s, and not again", async ({ page }) => {
    await signIn(page, DEMO_CUSTOMER);
    await expect(page).toHaveURL(/\/products$/);
    const notice = page.getByTestId("arrival-notice");
    await expect(notice.getByRole("status")).toHaveText(messages.auth.signInSuccess);
    await expect(notice.locator('[data-tone="success"]')).toBeVisible();
    await expect(notice.getByText(messages.auth.signInSuccess)).toBeHidden({ timeout: 5_000 });
    await page.reload();
    await page.waitForTimeout(500);
    await expect(page.getByText(messages.auth.signInSuccess)).toHaveCount(0);
  });
});
