import { expect, type Page } from "@playwright/test";
import { messages } from "../../src/lib/messages";
import { reactStarted } from "./test";

/** The demo accounts the e2e server seeds into its fresh data directory (supabase/seed-demo-users.sql). */
export const DEMO_ADMIN = { email: "admin@example.com", password: "admin-demo-2026", name: "Demo Admin" };
export const DEMO_CUSTOMER = { email: "customer@example.com", password: "customer-demo-2026", name: "Thandi Demo" };

export async function signIn(page: Page, account: { email: string; password: string }, next?: string) {
  await page.goto(next ? `/auth/signin?next=${encodeURIComponent(next)}` : "/auth/signin");
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password", { exact: true }).fill(account.password);
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  await expect(page.getByTestId("greeting")).toBeVisible();
  // The page signing in leads to came by the form, not page.goto: wait for React as goto does.
  await reactStarted(page);
}

export function uniqueEmail(prefix = "shopper") {
  return `${prefix}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.test`;
}

/** A new customer (signed up in `page`) with one Branded Cap (R95.50) in the cart, on the checkout page; returns the reference shown. */
export async function newCustomerAtCheckout(page: Page, fullName: string, emailPrefix: string): Promise<string> {
  await page.goto("/auth/signup");
  await page.getByLabel("Full name").fill(fullName);
  await page.getByLabel("Email").fill(uniqueEmail(emailPrefix));
  await page.getByLabel("Password", { exact: true }).fill(`${emailPrefix}-pass-2026`);
  await page.getByLabel("Confirm password", { exact: true }).fill(`${emailPrefix}-pass-2026`);
  await page.getByLabel("I agree to the Terms & Privacy Policy").check();
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByTestId("greeting")).toBeVisible();
  await page.goto("/products?q=Branded%20Cap");
  await page.getByRole("list", { name: "Product list" }).getByRole("link").first().click();
  // The list's cards have their own Add to Cart: wait for the product's page.
  await expect(page).toHaveURL(/\/products\/[0-9a-f-]{36}$/);
  await page.getByRole("button", { name: "Add to Cart" }).first().click();
  await expect(page.getByText(messages.cart.added("Branded Cap"))).toBeVisible();
  await page.goto("/checkout");
  return (await page.getByTestId("payment-reference").textContent())!;
}
