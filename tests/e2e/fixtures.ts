import { expect, type Page } from "@playwright/test";

/** The demo accounts the e2e server seeds into its fresh data directory (supabase/seed-demo-users.sql). */
export const DEMO_ADMIN = { email: "admin@example.com", password: "admin-demo-2026", name: "Demo Admin" };
export const DEMO_CUSTOMER = { email: "customer@example.com", password: "customer-demo-2026", name: "Thandi Demo" };

export async function signIn(page: Page, account: { email: string; password: string }, next?: string) {
  await page.goto(next ? `/auth/signin?next=${encodeURIComponent(next)}` : "/auth/signin");
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password", { exact: true }).fill(account.password);
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  await expect(page.getByTestId("greeting")).toBeVisible();
}

export function uniqueEmail(prefix = "shopper") {
  return `${prefix}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.test`;
}
