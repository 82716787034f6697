import { expect, test } from "./test";
import { DEMO_ADMIN, signIn } from "./fixtures";

/** A day `days` before today, as the overview's range takes it (YYYY-MM-DD). */
function daysAgo(days: number): string {
  return new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
}

test.describe("the sales overview's layout", () => {
  test("a year's screen-reader table takes no room: the page ends at its footer", async ({ page }) => {
    await signIn(page, DEMO_ADMIN);
    await page.goto(`/admin/overview?from=${daysAgo(364)}&to=${daysAgo(0)}`);
    const table = page.getByRole("table", { name: /^Revenue per day/ });
    await expect(table).toBeAttached();
    expect(await table.getByRole("row").count()).toBeGreaterThan(360);
    const { pageHeight, footerBottom } = await page.evaluate(() => {
      const footer = document.querySelector("footer")!.getBoundingClientRect();
      return { pageHeight: document.documentElement.scrollHeight, footerBottom: footer.bottom + window.scrollY };
    });
    expect(pageHeight).toBeLessThanOrEqual(Math.ceil(footerBottom) + 1);
    expect(pageHeight).toBeLessThan(4_000);
  });
});
