import { expect, test } from "@playwright/test";

test.describe("home page", () => {
  test("shows the hero and the seeded products with rand prices", async ({ page }) => {
    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1, name: "My World. Your World. Our World." })).toBeVisible();
    const cards = page.getByRole("region", { name: "Our products and services" }).getByRole("listitem");
    await expect(cards).toHaveCount(20);
    const firstPrice = await cards.first().locator(".tabular").textContent();
    expect(firstPrice).toMatch(/^R\d+(\.\d{2})?$/);
  });
});
