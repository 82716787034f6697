import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect, test } from "./test";
import { messages } from "../../src/lib/messages";
import { DEMO_ADMIN, DEMO_CUSTOMER } from "./fixtures";

const m = messages.auth;

/** Signs in on the sign-in page already open, without choosing where to go. */
async function submitSignIn(page: Page, account: { email: string; password: string }) {
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password", { exact: true }).fill(account.password);
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  await expect(page.getByTestId("greeting")).toBeVisible();
}

test.describe("terms and privacy pages", () => {
  test("the sign-up form's terms checkbox links to both pages and still ticks", async ({ page }) => {
    await page.goto("/auth/signup");
    const form = page.locator("form");
    const box = page.getByLabel("I agree to the Terms & Privacy Policy");
    await box.check();
    await expect(box).toBeChecked();

    await form.getByRole("link", { name: "Terms", exact: true }).click();
    await expect(page).toHaveURL(/\/terms$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Terms & Conditions");

    await page.goBack();
    await form.getByRole("link", { name: "Privacy Policy", exact: true }).click();
    await expect(page).toHaveURL(/\/privacy$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Privacy Policy");
  });

  test("the footer links to both pages", async ({ page }) => {
    await page.goto("/");
    const footer = page.getByRole("contentinfo");
    await footer.getByRole("link", { name: "Privacy Policy" }).click();
    await expect(page).toHaveURL(/\/privacy$/);
    await page.getByRole("contentinfo").getByRole("link", { name: "Terms & Conditions" }).click();
    await expect(page).toHaveURL(/\/terms$/);
    await expect(page).toHaveTitle(/^Terms & Conditions · /);
  });

  test("the privacy notice says what is kept, the rights, and whom to contact", async ({ page }) => {
    await page.goto("/privacy");
    await expect(page).toHaveTitle(/^Privacy Policy · /);
    for (const name of ["What we collect and why", "How long we keep it", "Who we share it with", "Your rights", "How to use your rights", "What deleting your account keeps", "Contact our information officer", "The Information Regulator"]) {
      await expect(page.getByRole("heading", { level: 2, name, exact: true })).toBeVisible();
    }
    await expect(page.getByRole("link", { name: "enquiries@inforegulator.org.za" })).toHaveAttribute("href", "mailto:enquiries@inforegulator.org.za");
    await expect(page.getByRole("link", { name: "inforegulator.org.za", exact: true })).toHaveAttribute("href", "https://inforegulator.org.za");
    await expect(page.getByText(/SARS requires businesses to keep their records of sales for 5 years/)).toBeVisible();
  });

  for (const path of ["/privacy", "/terms"]) {
    test(`${path} has no serious or critical axe violations`, async ({ page }) => {
      await page.goto(path);
      const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]).analyze();
      const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
      expect(serious.map((v) => `${v.id} ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
    });
  }

  test("pages render at 390 px and 1280 px (screenshots kept as test artefacts)", async ({ page }, testInfo) => {
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      for (const path of ["/privacy", "/terms", "/auth/signup", "/auth/signin?next=%2Fprofile&reason=profile", "/auth/signin?error=google&reason=cancelled"]) {
        await page.goto(path);
        const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
        expect(scrollWidth, `${path} at ${width} px scrolls sideways`).toBeLessThanOrEqual(width);
        const name = path.replace(/[^a-z]+/g, "-").replace(/^-|-$/g, "");
        await page.screenshot({ path: testInfo.outputPath(`${name}-${width}.png`), fullPage: true });
      }
    }
  });
});

test.describe("sign-in paths that explain themselves", () => {
  test("a visitor opening /profile is told why, signs in, and is back on /profile", async ({ page }) => {
    await page.goto("/profile");
    await expect(page).toHaveURL(/\/auth\/signin\?next=%2Fprofile&reason=profile$/);
    await expect(page.getByText(messages.profile.signInToView)).toBeVisible();
    await expect(page.getByText("Please sign in to view your profile.")).toBeVisible();
    await submitSignIn(page, DEMO_CUSTOMER);
    await expect(page).toHaveURL(/\/profile$/);
  });

  test("a visitor opening /cart is told why, signs in, and is back on /cart", async ({ page }) => {
    await page.goto("/cart");
    await expect(page).toHaveURL(/\/auth\/signin\?next=%2Fcart&reason=cart$/);
    await expect(page.getByText(m.signInReason.cart)).toBeVisible();
    await submitSignIn(page, DEMO_CUSTOMER);
    await expect(page).toHaveURL(/\/cart$/);
    await expect(page.getByRole("heading", { level: 1, name: "Your cart" })).toBeVisible();
  });

  test("checkout and the admin pages say their own reasons", async ({ page }) => {
    await page.goto("/checkout");
    await expect(page.getByText(m.signInReason.checkout)).toBeVisible();
    await page.goto("/admin/orders");
    await expect(page).toHaveURL(/reason=admin$/);
    await expect(page.getByText(m.signInReason.admin)).toBeVisible();
  });

  test("an unknown reason shows nothing", async ({ page }) => {
    await page.goto("/auth/signin?reason=%3Cb%3Ezebra-crossing%3C%2Fb%3E");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(page.getByText("zebra-crossing")).toHaveCount(0);
    for (const text of Object.values(m.signInReason)) await expect(page.getByText(text)).toHaveCount(0);
  });

  test("next=//evil.example is ignored: a customer lands on the shop", async ({ page }) => {
    await page.goto("/auth/signin?next=%2F%2Fevil.example");
    await submitSignIn(page, DEMO_CUSTOMER);
    await expect(page).toHaveURL(/^http:\/\/localhost:\d+\/products$/);
  });

  test("next=https://evil.example is ignored: an admin lands on the dashboard", async ({ page }) => {
    await page.goto(`/auth/signin?next=${encodeURIComponent("https://evil.example")}`);
    await submitSignIn(page, DEMO_ADMIN);
    await expect(page).toHaveURL(/^http:\/\/localhost:\d+\/admin\/dashboard$/);
  });

  test("next=/\\evil.example is ignored too", async ({ page }) => {
    await page.goto(`/auth/signin?next=${encodeURIComponent("/\\evil.example")}`);
    await submitSignIn(page, DEMO_CUSTOMER);
    await expect(page).toHaveURL(/^http:\/\/localhost:\d+\/products$/);
  });
});

test.describe("Google sign-in when it is not configured", () => {
  test("neither sign-in nor sign-up offers a Google button", async ({ page }) => {
    for (const path of ["/auth/signin", "/auth/signup"]) {
      await page.goto(path);
      await expect(page.getByRole("button", { name: "Sign In", exact: true }).or(page.getByRole("button", { name: "Create account" }))).toBeVisible();
      await expect(page.getByRole("button", { name: /Google/ })).toHaveCount(0);
      await expect(page.getByRole("separator", { name: "or" })).toHaveCount(0);
    }
  });

  test("a failed Google sign-in comes back with 'Error: ' and the reason", async ({ page }) => {
    // The callback itself: with no Google credentials it cannot finish, and says why.
    await page.goto("/auth/callback?code=x&state=y");
    await expect(page).toHaveURL(/\/auth\/signin\?error=google&reason=not_configured/);
    await expect(page.getByText(m.errorPrefix + m.googleNotConfigured)).toBeVisible();

    // Cancelled on Google's consent screen.
    await page.goto("/auth/callback?error=access_denied&state=y");
    await expect(page.getByText("Error: Google sign-in was cancelled.")).toBeVisible();

    // A code the page does not know still says that Google sign-in failed, not the code.
    await page.goto("/auth/signin?error=google&reason=%3Cscript%3E");
    await expect(page.getByText(m.errorPrefix + m.googleFailed)).toBeVisible();
  });
});
