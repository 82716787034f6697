import { expect, test } from "./test";
import { DEMO_ADMIN, DEMO_CUSTOMER, signIn } from "./fixtures";

test.describe("/admin", () => {
  test("takes an admin to the first admin page, named as the header names it", async ({ page }) => {
    await signIn(page, DEMO_ADMIN);
    const response = await page.goto("/admin");
    expect(response?.status()).toBe(200);
    await expect(page).toHaveURL(/\/admin\/overview$/);
    const adminNav = page.getByRole("navigation", { name: "Admin" });
    const header = page.getByRole("navigation", { name: "Main" });
    for (const name of ["Dashboard", "Orders"]) {
      await expect(header.getByRole("link", { name, exact: true })).toHaveAttribute("href", (await adminNav.getByRole("link", { name, exact: true }).getAttribute("href"))!);
    }
    await expect(adminNav.getByRole("link", { name: "Products", exact: true })).toHaveCount(0);
  });

  test("sends a customer to their profile and a visitor to sign in, as every admin page does", async ({ page, browser }) => {
    const visitor = await browser.newPage();
    await visitor.goto("/admin");
    await expect(visitor).toHaveURL(/\/auth\/signin\?next=%2Fadmin/);
    await visitor.close();
    await signIn(page, DEMO_CUSTOMER);
    await page.goto("/admin");
    await expect(page).toHaveURL(/\/profile$/);
  });
});
