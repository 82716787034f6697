import { expect, test } from "../e2e/test";
import { messages } from "../../src/lib/messages";
import { DEMO_CUSTOMER, fakeSupabase, newAccount, signIn, signUp, submitSignUp } from "./fixtures";

const m = messages.auth;

test.describe("accounts on Supabase Auth", () => {
  test("a new customer signs up, is greeted by name, signs out and back in", async ({ page }) => {
    const account = await signUp(page, "supa-auth", "Sipho Dlamini");
    await page.getByRole("button", { name: "Sign Out" }).click();
    await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Sign In" })).toBeVisible();
    await page.reload();
    await expect(page.getByTestId("greeting")).toHaveCount(0);
    await signIn(page, account);
    await expect(page.getByTestId("greeting")).toHaveText("Welcome, Sipho Dlamini");
    // Said on the page sign-in lands on (the sign-in page is replaced at once), for 3 s.
    await expect(page.getByTestId("arrival-notice").getByRole("status")).toHaveText(m.signInSuccess);
    await expect(page.getByText(m.signInSuccess)).toBeHidden({ timeout: 5_000 });
  });

  test("a wrong password shows Supabase's refusal in the shop's words", async ({ page }) => {
    await page.goto("/auth/signin");
    await page.getByLabel("Email").fill(DEMO_CUSTOMER.email);
    await page.getByLabel("Password", { exact: true }).fill("not-the-password");
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
    await expect(page.getByText(`${m.errorPrefix}${m.invalidCredentials}`)).toBeVisible();
    await expect(page.getByTestId("greeting")).toHaveCount(0);
  });

  test("sign-out ends the Supabase session: the old cookie no longer signs anyone in", async ({ page, context }) => {
    await signIn(page, DEMO_CUSTOMER);
    const before = await context.cookies();
    expect(before.some((cookie) => /^sb-.+-auth-token/.test(cookie.name))).toBe(true);
    await page.getByRole("button", { name: "Sign Out" }).click();
    await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Sign In" })).toBeVisible();
    // Put the signed-out session's cookies back: Auth has ended the session, so they sign in no one.
    await context.addCookies(before);
    await page.goto("/profile");
    await expect(page).toHaveURL(/\/auth\/signin\?next=%2Fprofile/);
  });
});

test.describe("e-mail confirmation on", () => {
  test.beforeEach(async () => {
    await fakeSupabase.setEmailConfirmation(true);
  });
  test.afterEach(async () => {
    await fakeSupabase.setEmailConfirmation(false);
  });

  test("the confirmation link lands the new customer signed in on the shop, at `next`, through a relative redirect", async ({ page, baseURL }) => {
    const account = newAccount("confirm", "Naledi Khumalo");
    await submitSignUp(page, account);
    await expect(page.getByText(m.checkInbox)).toBeVisible();
    await expect(page.getByTestId("greeting")).toHaveCount(0);

    // Signing in before confirming says what to do.
    await page.goto("/auth/signin");
    await page.getByLabel("Email").fill(account.email);
    await page.getByLabel("Password", { exact: true }).fill(account.password);
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
    await expect(page.getByText(m.emailNotConfirmed)).toBeVisible();

    const mails = await fakeSupabase.mails(account.email);
    expect(mails).toHaveLength(1);
    const link = new URL(mails[0]!.link);
    expect(link.pathname).toBe("/auth/v1/verify");
    expect(link.searchParams.get("type")).toBe("signup");
    // Auth sends the browser back to the shop's callback (allowed by additional_redirect_urls).
    expect(new URL(link.searchParams.get("redirect_to")!).origin).toBe(baseURL);

    const callbacks: { status: number; location: string | undefined }[] = [];
    page.on("response", (response) => {
      if (new URL(response.url()).pathname === "/auth/callback") callbacks.push({ status: response.status(), location: response.headers()["location"] });
    });
    // In the same browser, as from the mail: the PKCE verifier the sign-up left is in its cookies.
    await page.goto(link.toString());
    await expect(page).toHaveURL(`${baseURL}/products`);
    await expect(page.getByTestId("greeting")).toHaveText("Welcome, Naledi Khumalo");
    expect(callbacks).toEqual([{ status: 303, location: "/products" }]);
    // The PKCE verifier the sign-up left is spent: nothing of it stays in the browser.
    expect((await page.context().cookies()).map((cookie) => cookie.name).filter((name) => name.includes("code-verifier"))).toEqual([]);
  });
});
