import { expect, type Page } from "@playwright/test";
import { fakeSupabaseControl } from "../helpers/fake-supabase/control";
import { uniqueEmail } from "../e2e/fixtures";

export { DEMO_ADMIN, DEMO_CUSTOMER, signIn, uniqueEmail } from "../e2e/fixtures";

/** The fake Supabase the server script started (same default port as playwright.supabase.config.ts). */
export const FAKE_SUPABASE_URL = `http://127.0.0.1:${process.env.E2E_FAKE_SUPABASE_PORT ?? 3111}`;
export const fakeSupabase = fakeSupabaseControl(FAKE_SUPABASE_URL);

export interface NewAccount {
  name: string;
  email: string;
  password: string;
}

export function newAccount(prefix: string, name = "Lerato Mokoena"): NewAccount {
  return { name, email: uniqueEmail(prefix), password: `${prefix}-pass-2026` };
}

/** Fills and sends the sign-up form (what follows depends on the project's e-mail confirmation). */
export async function submitSignUp(page: Page, account: NewAccount) {
  await page.goto("/auth/signup");
  await page.getByLabel("Full name").fill(account.name);
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password", { exact: true }).fill(account.password);
  await page.getByLabel("Confirm password", { exact: true }).fill(account.password);
  await page.getByLabel("I agree to the Terms & Privacy Policy").check();
  await page.getByRole("button", { name: "Create account" }).click();
}

/** A new customer, signed up and signed in (the project confirms no e-mail, as config.toml says). */
export async function signUp(page: Page, prefix = "shopper", name?: string): Promise<NewAccount> {
  const account = newAccount(prefix, name);
  await submitSignUp(page, account);
  await expect(page.getByTestId("greeting")).toHaveText(`Welcome, ${account.name}`);
  return account;
}

/** The signed-in user's id, as the shop's own API reports it. */
export async function sessionUserId(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const response = await fetch("/api/trpc/auth.session");
    const body = (await response.json()) as { result: { data: { json: { id: string } } } };
    return body.result.data.json.id;
  });
}

/** Adds the first product a search finds to the cart, from its details page. */
export async function addProduct(page: Page, search: string) {
  await page.goto(`/products?q=${encodeURIComponent(search)}`);
  await page.getByRole("list", { name: "Product list" }).getByRole("link").first().click();
  // The list's cards have their own Add to Cart: wait for the product's page (as tests/e2e/fixtures.ts does).
  await expect(page).toHaveURL(/\/products\/[0-9a-f-]{36}$/);
  await page.getByRole("button", { name: "Add to Cart" }).first().click();
  await expect(page.getByText(/added to cart\.|quantity updated in cart\./).first()).toBeVisible();
}

/**
 * Everything the page reports as an error: uncaught exceptions and console errors (React's
 * hydration errors, #418 in production, are both). Resource loads that fail are reported
 * separately by the tests that care.
 */
export function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(`pageerror: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error" && !message.text().startsWith("Failed to load resource")) errors.push(`console: ${message.text()}`);
  });
  return errors;
}

/** Whether an <img> has loaded real pixels. */
export const imageLoaded = (img: HTMLImageElement) => img.complete && img.naturalWidth > 0;
