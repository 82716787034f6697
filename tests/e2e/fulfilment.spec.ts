import type { Page } from "@playwright/test";
import { expect, test } from "./test";
import { formatDay } from "../../src/lib/days";
import { messages } from "../../src/lib/messages";
import { makePng } from "../helpers/images";
import { DEMO_ADMIN, newCustomerAtCheckout, signIn } from "./fixtures";

/**
 * Delivery or collection end to end, on a phone (390 px): the owner adds a delivery area in Shop
 * settings, a customer chooses delivery to it, sees the fee in the total and pays by bank
 * transfer, and the admin filters the orders by that day and finds it, with its run sheet.
 */

const f = messages.fulfilment;
const AREA = "Sandton";

async function fulfilmentSection(page: Page) {
  await page.goto("/admin/settings");
  return page.getByTestId("fulfilment-settings");
}

test.describe("delivery to a suburb", () => {
  test.beforeAll(async ({ browser }) => {
    // The owner sets delivery up under Shop settings, as docs/delivery-and-collection.md says.
    const page = await (await browser.newContext()).newPage();
    await signIn(page, DEMO_ADMIN);
    const section = await fulfilmentSection(page);
    await section.getByLabel("Suburb or postal code").fill(AREA);
    await section.getByLabel("Fee (R)").fill("60");
    await section.getByRole("button", { name: "Add area" }).click();
    await expect(section.getByText(f.areaSaved(AREA))).toBeVisible();
  });

  test.afterAll(async ({ browser }) => {
    // Nothing asked at checkout again, for the other tests.
    const page = await (await browser.newContext()).newPage();
    await signIn(page, DEMO_ADMIN);
    const section = await fulfilmentSection(page);
    await section.getByRole("button", { name: `Remove ${AREA}` }).click();
    await expect(section.getByText(f.areaRemoved(AREA))).toBeVisible();
  });

  test("a customer on a phone chooses delivery, sees the fee in the total and pays by bank transfer; the admin finds it on that day", async ({ page, browser }) => {
    // Signed up at the default width (the greeting the fixture waits for is in the desktop
    // navigation), then checkout on a phone.
    const reference = await newCustomerAtCheckout(page, "Naledi Mokoena", "delivery");
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    const picker = page.getByTestId("fulfilment");
    await expect(picker).toBeVisible();
    await expect(page.getByTestId("checkout-total")).toHaveText("R95.50");

    // Without an area the order is refused in the customer's words, and nothing is placed.
    await page.getByLabel(/^Proof of payment/).setInputFiles({ name: "eft.png", mimeType: "image/png", buffer: makePng(40, 30) });
    await page.getByRole("button", { name: "Complete Payment" }).click();
    await expect(page.getByText(f.areaUnknown)).toBeVisible();

    await picker.getByLabel(f.area).selectOption({ label: `${AREA} (R60)` });
    // The refusal goes with the new choice (not 3 s later): it no longer describes the form.
    await expect(page.getByText(f.areaUnknown)).toBeHidden();
    await picker.getByLabel(f.address).fill("4 Maude Street, Sandton");
    const day = await picker.getByLabel(f.day).inputValue();
    expect(day).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    await expect(page.getByTestId("delivery-fee")).toHaveText(`${f.deliveryFee}R60`);
    await expect(page.getByTestId("checkout-total")).toHaveText("R155.50");

    await page.getByRole("button", { name: "Complete Payment" }).click();
    await expect(page.getByText(messages.checkout.success(reference))).toBeVisible();

    // The purchase history says how and when.
    await page.goto("/profile");
    await expect(page.getByTestId("order-fulfilment").first()).toContainText(f.deliveredOn(formatDay(day)));

    // The admin asks "what do we deliver on that day?" and finds it, with its run sheet.
    const admin = await (await browser.newContext()).newPage();
    await signIn(admin, DEMO_ADMIN);
    await admin.setViewportSize({ width: 390, height: 844 });
    await admin.goto(`/admin/orders?day=${day}`);
    const card = admin.getByTestId("order-card").filter({ hasText: reference });
    await expect(card).toBeVisible();
    await expect(card.getByTestId("order-fulfilment")).toContainText("4 Maude Street, Sandton");
    await expect(card).toContainText("R155.50");
    await admin.getByRole("link", { name: /^Run sheet for/ }).click();
    await expect(admin.getByTestId("run-sheet-deliveries")).toContainText(reference);
    await expect(admin.getByTestId("run-sheet-deliveries")).toContainText("4 Maude Street, Sandton");
    // Printed, the sheet is the page: no header, admin navigation, buttons or footer.
    await admin.emulateMedia({ media: "print" });
    for (const chrome of [admin.locator("header"), admin.getByRole("navigation", { name: "Admin" }), admin.locator("footer")]) await expect(chrome).toBeHidden();
    await expect(admin.getByTestId("run-sheet-deliveries")).toBeVisible();
    await admin.emulateMedia({ media: "screen" });
    // Another day does not list it.
    await admin.goto("/admin/orders?day=2020-01-01");
    await expect(admin.getByText(messages.adminOrders.noneWithStatus("All"))).toBeVisible();
  });
});
