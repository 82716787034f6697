import type { Page } from "@playwright/test";
import { expect, test } from "./test";
import { messages } from "../../src/lib/messages";
import { makePng } from "../helpers/images";
import { DEMO_ADMIN, signIn, uniqueEmail } from "./fixtures";

const SERVICE = "Carpet & Upholstery Deep Clean";

async function bookingPanel(page: Page) {
  await page.goto("/admin/dashboard");
  const item = page.getByRole("list", { name: "Products" }).getByRole("listitem").filter({ hasText: SERVICE });
  await item.getByRole("button", { name: `Booking of ${SERVICE}` }).click();
  return item.getByRole("form", { name: messages.bookings.admin.panel });
}

test.describe("bookable services", () => {
  test("the owner makes the deep clean bookable; a customer picks a time, sees it held with a countdown, pays, the order shows the booked time, and the customer moves it", async ({ page, browser }) => {
    test.setTimeout(120_000);
    await signIn(page, DEMO_ADMIN);
    const panel = await bookingPanel(page);
    await panel.getByLabel(messages.bookings.admin.bookable).check();
    await panel.getByLabel("Duration (minutes)").fill("120");
    await panel.getByLabel("Minimum notice (hours)").fill("0");
    await panel.getByRole("combobox", { name: "Deposit" }).selectOption("percent");
    await panel.getByLabel("Deposit (%)").fill("0");
    await panel.getByRole("button", { name: "Save booking settings" }).click();
    await expect(panel.getByRole("alert")).toHaveText(messages.bookings.admin.depositPercent);
    await panel.getByLabel("Deposit (%)").fill("30");
    await expect(panel.getByLabel("Sunday hours")).toHaveValue("shop");
    await panel.getByRole("button", { name: "Save booking settings" }).click();
    await expect(page.getByText(messages.bookings.admin.saved(SERVICE))).toBeVisible();

    const customer = await (await browser.newContext()).newPage();
    await customer.goto("/auth/signup");
    await customer.getByLabel("Full name").fill("Lindiwe Mokoena");
    await customer.getByLabel("Email").fill(uniqueEmail("bookings"));
    await customer.getByLabel("Password", { exact: true }).fill("bookings-2026");
    await customer.getByLabel("Confirm password", { exact: true }).fill("bookings-2026");
    await customer.getByLabel("I agree to the Terms & Privacy Policy").check();
    await customer.getByRole("button", { name: "Create account" }).click();
    await expect(customer.getByTestId("greeting")).toBeVisible();

    // The card sends the customer to the service's page to choose a time.
    await customer.goto(`/products?q=${encodeURIComponent("Upholstery")}`);
    await customer.getByRole("list", { name: "Product list" }).getByRole("listitem").filter({ hasText: SERVICE }).getByRole("link", { name: messages.bookings.chooseTime }).click();
    await expect(customer.getByRole("heading", { level: 1, name: SERVICE })).toBeVisible();
    await expect(customer.getByText(messages.bookings.timesNote)).toBeVisible();
    const article = customer.getByRole("article");
    // Nothing chosen yet: it says so.
    await article.getByRole("button", { name: "Add to Cart" }).click();
    await expect(customer.getByText(messages.bookings.pickFirst)).toBeVisible();
    const day = article.getByRole("group", { name: "Day" }).getByRole("button").nth(1);
    const dayLabel = (await day.textContent())!;
    await day.click();
    await article.getByRole("group", { name: "Time" }).getByRole("button", { name: "10:00", exact: true }).click();
    await article.getByRole("button", { name: "Add to Cart" }).click();
    await expect(customer.getByText(/is held for you/)).toBeVisible();

    // The cart shows the time and the hold counting down, with no quantity to change.
    await customer.goto("/cart");
    const line = customer.getByRole("list", { name: "Cart items" }).getByRole("listitem").filter({ hasText: SERVICE });
    await expect(line.getByTestId("booking-slot")).toHaveText(new RegExp(`^Booked for ${dayLabel} \\d{4}, 10:00$`));
    await expect(line.getByTestId("hold-countdown")).toHaveText(/^Held for 1[45]:\d\d$/);
    const before = await line.getByTestId("hold-countdown").textContent();
    await expect(line.getByTestId("hold-countdown")).not.toHaveText(before!);
    await expect(line.getByRole("group", { name: `Quantity of ${SERVICE}` })).toHaveCount(0);

    await customer.goto("/checkout");
    const reference = (await customer.getByTestId("payment-reference").textContent())!;
    await customer.getByLabel(/^Proof of payment/).setInputFiles({ name: "proof.png", mimeType: "image/png", buffer: makePng(40, 30) });
    await customer.getByRole("button", { name: "Complete Payment" }).click();
    await expect(customer.getByText(messages.checkout.success(reference))).toBeVisible();

    // The order page and Order Management show the booked time.
    await customer.goto(`/profile/orders/${reference}`);
    await expect(customer.getByText(new RegExp(`Booked for ${dayLabel} \\d{4}, 10:00`))).toBeVisible();
    await page.goto(`/admin/orders?q=${reference}`);
    await expect(page.getByText(new RegExp(`Booked for ${dayLabel} \\d{4}, 10:00`))).toBeVisible();

    // The customer moves it to 14:00 the same day from the order page.
    await customer.getByRole("button", { name: "Change time" }).click();
    await customer.getByLabel("New time").selectOption({ label: `${dayLabel}, 14:00` });
    await customer.getByRole("button", { name: "Move booking" }).click();
    await expect(customer.getByText(/is now booked for/)).toBeVisible();
    await expect(customer.getByText(new RegExp(`Booked for ${dayLabel} \\d{4}, 14:00`))).toBeVisible();

    // The deep clean goes back to being sold as before, as the other tests expect it.
    const again = await bookingPanel(page);
    await expect(again.getByLabel("Deposit (%)")).toHaveValue("30");
    await again.getByLabel(messages.bookings.admin.bookable).uncheck();
    await again.getByRole("button", { name: "Save booking settings" }).click();
    await expect(page.getByText(messages.bookings.admin.stopped(SERVICE))).toBeVisible();
  });
});
