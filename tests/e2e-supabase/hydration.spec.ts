import type { Page } from "@playwright/test";
import { expect, test } from "../e2e/test";
import { collectErrors, DEMO_ADMIN, DEMO_CUSTOMER, signIn } from "./fixtures";

/**
 * In Supabase mode these pages threw React's hydration error (#418) in the browser while the
 * same pages in the embedded mode did not. Each is loaded fresh (a full page load, so the server's
 * HTML is hydrated) and must report no error at all.
 */
async function loadEach(page: Page, paths: string[]): Promise<Record<string, string[]>> {
  const found: Record<string, string[]> = {};
  for (const path of paths) {
    const errors = collectErrors(page);
    await page.goto(path);
    await expect(page).toHaveURL(new RegExp(`${path}$`));
    await page.waitForLoadState("networkidle");
    found[path] = [...errors];
    page.removeAllListeners("pageerror");
    page.removeAllListeners("console");
  }
  return found;
}

test.describe("hydration in Supabase mode", () => {
  test("a customer's cart and profile hydrate without errors", async ({ page }) => {
    await signIn(page, DEMO_CUSTOMER);
    expect(await loadEach(page, ["/cart", "/profile"])).toEqual({ "/cart": [], "/profile": [] });
  });

  test("the admin's dashboard, settings, messages, orders and outbox hydrate without errors", async ({ page }) => {
    await signIn(page, DEMO_ADMIN);
    const paths = ["/admin/dashboard", "/admin/settings", "/admin/messages", "/admin/orders", "/admin/outbox"];
    expect(await loadEach(page, paths)).toEqual(Object.fromEntries(paths.map((path) => [path, []])));
  });
});
