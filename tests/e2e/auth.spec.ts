import { expect, test } from "./test";
import { messages } from "../../src/lib/messages";
import { DEMO_ADMIN, DEMO_CUSTOMER, signIn, uniqueEmail } from "./fixtures";

const m = messages.auth;

test.describe("sign-up", () => {
  test("a new customer signs up, is greeted by name and is signed in", async ({ page }) => {
    await page.goto("/auth/signup");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(/^Join /);
    await page.getByLabel("Full name").fill("Ayanda Khumalo");
    await page.getByLabel("Email").fill(uniqueEmail());
    await page.getByLabel("Password", { exact: true }).fill("pies-and-more");
    await page.getByLabel("Confirm password", { exact: true }).fill("pies-and-more");
    await page.getByLabel("I agree to the Terms & Privacy Policy").check();
    await page.getByRole("button", { name: "Create account" }).click();
    // Styled as a success because the text says 'successful'.
    await expect(page.getByRole("status").locator('[data-tone="success"]', { hasText: m.signUpSuccess })).toBeVisible();
    await expect(page.getByTestId("greeting")).toHaveText("Welcome, Ayanda Khumalo");
    await expect(page.getByRole("button", { name: "Sign Out" })).toBeVisible();
  });

  test("mismatched passwords are refused, and the message clears after 3 s", async ({ page }) => {
    await page.goto("/auth/signup");
    await page.getByLabel("Full name").fill("Test Person");
    await page.getByLabel("Email").fill(uniqueEmail());
    await page.getByLabel("Password", { exact: true }).fill("one-password");
    await page.getByLabel("Confirm password", { exact: true }).fill("another-password");
    await page.getByLabel("I agree to the Terms & Privacy Policy").check();
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page.getByText(m.passwordsDoNotMatch)).toBeVisible();
    await expect(page.getByText(m.passwordsDoNotMatch)).toBeHidden({ timeout: 5_000 });
  });

  test("the password fields can be shown and hidden", async ({ page }) => {
    await page.goto("/auth/signup");
    const password = page.getByLabel("Password", { exact: true });
    await expect(password).toHaveAttribute("type", "password");
    await page.getByRole("button", { name: "Show password" }).click();
    await expect(password).toHaveAttribute("type", "text");
  });

  test("without Google credentials there is no Google button to fail", async ({ page }) => {
    await page.goto("/auth/signup");
    await expect(page.getByRole("button", { name: "Create account" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Continue with Google" })).toHaveCount(0);
  });
});

test.describe("sign-in", () => {
  test("a wrong password shows the provider's error", async ({ page }) => {
    await page.goto("/auth/signin");
    await page.getByLabel("Email").fill(DEMO_CUSTOMER.email);
    await page.getByLabel("Password", { exact: true }).fill("not-the-password");
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
    await expect(page.getByText(`${m.errorPrefix}${m.invalidCredentials}`)).toBeVisible();
  });

  test("empty fields ask for both", async ({ page }) => {
    await page.goto("/auth/signin");
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
    await expect(page.getByText(m.fillAllFields)).toBeVisible();
  });

  test("the session cookie is httpOnly and SameSite=Lax", async ({ page, context }) => {
    await signIn(page, DEMO_CUSTOMER);
    const session = (await context.cookies()).find((cookie) => cookie.name === "shop-session");
    expect(session).toMatchObject({ httpOnly: true, sameSite: "Lax" });
  });
});

test.describe("navigation bar", () => {
  const nav = (page: import("@playwright/test").Page) => page.getByRole("navigation", { name: "Main" });

  test("a visitor sees the shop's pages, Sign In and Sign Up", async ({ page }) => {
    await page.goto("/");
    for (const name of ["Home", "About", "Contact", "Products", "Cart", "Sign In", "Sign Up"]) {
      await expect(nav(page).getByRole("link", { name, exact: true })).toBeVisible();
    }
    await expect(nav(page).getByRole("link", { name: "Dashboard" })).toHaveCount(0);
  });

  test("a customer sees Products and Cart, the greeting and Sign Out", async ({ page }) => {
    await signIn(page, DEMO_CUSTOMER);
    await page.goto("/");
    await expect(page.getByTestId("greeting")).toHaveText(`Welcome, ${DEMO_CUSTOMER.name}`);
    for (const name of ["Home", "About", "Contact", "Products"]) {
      await expect(nav(page).getByRole("link", { name, exact: true })).toBeVisible();
    }
    // The cart link also says how many items the cart holds.
    await expect(nav(page).getByRole("link", { name: /^Cart/ })).toBeVisible();
    await expect(nav(page).getByRole("link", { name: "Dashboard" })).toHaveCount(0);
    await expect(nav(page).getByRole("link", { name: "Sign In" })).toHaveCount(0);
  });

  test("an admin sees Dashboard and Orders instead of Products and Cart", async ({ page }) => {
    await signIn(page, DEMO_ADMIN);
    await page.goto("/");
    for (const name of ["Home", "About", "Contact", "Dashboard", "Orders"]) {
      await expect(nav(page).getByRole("link", { name, exact: true })).toBeVisible();
    }
    await expect(nav(page).getByRole("link", { name: "Products", exact: true })).toHaveCount(0);
    await expect(nav(page).getByRole("link", { name: "Cart", exact: true })).toHaveCount(0);
  });

  test("sign out returns to the visitor's navigation", async ({ page }) => {
    await signIn(page, DEMO_CUSTOMER);
    await page.getByRole("button", { name: "Sign Out" }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(nav(page).getByRole("link", { name: "Sign In" })).toBeVisible();
    await page.reload();
    await expect(page.getByTestId("greeting")).toHaveCount(0);
  });

  test("Sign Out works before the page's scripts have run, or without them: the session ends", async ({ page, browser }) => {
    await signIn(page, DEMO_CUSTOMER);
    const signedIn = await page.context().storageState();
    // The same customer's cookies in a browser that runs no script at all.
    const noScripts = await browser.newContext({ storageState: signedIn, javaScriptEnabled: false });
    const tab = await noScripts.newPage();
    await tab.goto("/products");
    await expect(tab.getByTestId("greeting")).toBeVisible();
    await tab.getByRole("button", { name: "Sign Out" }).click();
    await expect(tab).toHaveURL(/\/$/);
    await expect(tab.getByTestId("greeting")).toHaveCount(0);
    await expect(nav(tab).getByRole("link", { name: "Sign In" })).toBeVisible();
    await noScripts.close();
    // The session itself is over: its old cookie signs nobody in.
    const replayed = await browser.newContext({ storageState: signedIn });
    const again = await replayed.newPage();
    await again.goto("/profile");
    await expect(again).toHaveURL(/\/auth\/signin/);
    await replayed.close();
  });
});
