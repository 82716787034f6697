import { expect, test } from "../e2e/test";
import { accountMessages, authLinkMessages, messages } from "../../src/lib/messages";
import { fakeSupabase, signUp, uniqueEmail } from "./fixtures";

/*
 * "Forgot password?" on Supabase Auth (issue 34): the shop asks Auth for the recovery mail (POST
 * /recover with a PKCE challenge), the link goes through Auth's verify to /auth/callback (flow
 * "recovery"), which exchanges the code and sends the browser to /auth/reset; the new password is
 * Auth's updateUser, and every other session is signed out.
 */
test.describe("password recovery on Supabase Auth", () => {
  test.describe.configure({ timeout: 120_000 });

  test("the mailed link signs in to set a new password, other sessions end, the old password and a second use are refused", async ({ page, browser, baseURL }) => {
    const account = await signUp(page, "supa-recover", "Thabo Recovery");
    const other = await browser.newContext();
    const otherPage = await other.newPage();
    await otherPage.goto(`${baseURL}/auth/signin`);
    await otherPage.getByLabel("Email").fill(account.email);
    await otherPage.getByLabel("Password", { exact: true }).fill(account.password);
    await otherPage.getByRole("button", { name: "Sign In", exact: true }).click();
    await expect(otherPage.getByTestId("greeting")).toBeVisible();

    await page.context().clearCookies();
    await page.goto("/auth/signin");
    await page.getByRole("link", { name: accountMessages.forgotLink }).first().click();
    await expect(page).toHaveURL(/\/auth\/forgot$/);
    await page.getByLabel("Email").fill(account.email);
    await page.getByRole("button", { name: "Send me a reset link" }).click();
    await expect(page.getByText(accountMessages.resetRequested)).toBeVisible();

    // An unknown address, asked from another browser: the same answer, and Auth mails nobody. (In
    // the same browser it would replace the PKCE verifier the first request left there, which the
    // first mail's link needs: auth-js keeps the newest one for a server's code exchange.)
    const nobody = uniqueEmail("supa-nobody");
    const stranger = await browser.newContext();
    const strangerPage = await stranger.newPage();
    await strangerPage.goto(`${baseURL}/auth/forgot`);
    await strangerPage.getByLabel("Email").fill(nobody);
    await strangerPage.getByRole("button", { name: "Send me a reset link" }).click();
    await expect(strangerPage.getByText(accountMessages.resetRequested)).toBeVisible();
    expect(await fakeSupabase.mails(nobody)).toEqual([]);
    await stranger.close();

    const mails = (await fakeSupabase.mails(account.email)).filter((mail) => mail.type === "recovery");
    expect(mails).toHaveLength(1);
    const link = new URL(mails[0]!.link);
    expect(link.searchParams.get("type")).toBe("recovery");
    expect(new URL(link.searchParams.get("redirect_to")!).pathname).toBe("/auth/callback");

    await page.goto(link.toString());
    await expect(page).toHaveURL(`${baseURL}/auth/reset`);
    await page.getByLabel("New password", { exact: true }).fill("supa-new-pass-2026");
    await page.getByLabel("Confirm new password", { exact: true }).fill("supa-new-pass-2026");
    await page.getByRole("button", { name: "Set new password" }).click();
    await expect(page.getByText(accountMessages.passwordReset)).toBeVisible();
    await expect(page.getByTestId("greeting")).toBeVisible();
    // A moment later the shop takes the customer on to the products (a page load, which a goto
    // started before it would be aborted by).
    await expect(page).toHaveURL(`${baseURL}/products`);

    // The other device's session was ended by Auth (signOut others).
    await otherPage.goto(`${baseURL}/profile`);
    await expect(otherPage).toHaveURL(/\/auth\/signin\?next=%2Fprofile/);
    await other.close();

    await page.context().clearCookies();
    await page.goto("/auth/signin");
    await page.getByLabel("Email").fill(account.email);
    await page.getByLabel("Password", { exact: true }).fill(account.password);
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
    await expect(page.getByText(messages.auth.errorPrefix + messages.auth.invalidCredentials)).toBeVisible();

    // The link works once: a second use lands on the sign-in page, told plainly.
    await page.goto(link.toString());
    await expect(page).toHaveURL(/\/auth\/signin\?error=recovery&reason=expired/);
    await expect(page.getByText(authLinkMessages.recovery.expired)).toBeVisible();

    await page.getByLabel("Email").fill(account.email);
    await page.getByLabel("Password", { exact: true }).fill("supa-new-pass-2026");
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
    await expect(page.getByTestId("greeting")).toBeVisible();
  });

  test("without a recovery link, /auth/reset changes nothing", async ({ page }) => {
    await page.goto("/auth/reset");
    await page.getByLabel("New password", { exact: true }).fill("supa-new-pass-2026");
    await page.getByLabel("Confirm new password", { exact: true }).fill("supa-new-pass-2026");
    await page.getByRole("button", { name: "Set new password" }).click();
    await expect(page.getByText(accountMessages.resetLinkInvalid)).toBeVisible();
  });
});

test.describe("account settings on Supabase Auth", () => {
  test.describe.configure({ timeout: 120_000 });

  test("the profile changes the password (the current one checked) and the e-mail address (Auth's link to the new address, back through the callback)", async ({ page, baseURL }) => {
    const account = await signUp(page, "supa-settings", "Zodwa Settings");
    await page.goto("/profile");
    const passwordForm = page.locator("form", { has: page.getByRole("heading", { name: "Change password" }) });
    await passwordForm.getByLabel("Current password", { exact: true }).fill("not-my-password");
    await passwordForm.getByLabel("New password", { exact: true }).fill("supa-changed-2026");
    await passwordForm.getByLabel("Confirm new password", { exact: true }).fill("supa-changed-2026");
    await passwordForm.getByRole("button", { name: "Change password" }).click();
    await expect(page.getByText(accountMessages.currentPasswordWrong)).toBeVisible();
    await passwordForm.getByLabel("Current password", { exact: true }).fill(account.password);
    await passwordForm.getByRole("button", { name: "Change password" }).click();
    await expect(page.getByText(accountMessages.passwordChanged)).toBeVisible();

    const newEmail = uniqueEmail("supa-moved");
    const emailForm = page.locator("form", { has: page.getByRole("heading", { name: "Change e-mail address" }) });
    await emailForm.getByLabel("New email address").fill(newEmail);
    await emailForm.getByRole("button", { name: "Send confirmation link" }).click();
    await expect(page.getByText(accountMessages.emailChangeRequested(newEmail))).toBeVisible();

    const mails = (await fakeSupabase.mails(newEmail)).filter((mail) => mail.type === "email_change");
    expect(mails).toHaveLength(1);
    await page.goto(mails[0]!.link);
    await expect(page).toHaveURL(`${baseURL}/profile`);
    await expect(page.getByText(newEmail)).toBeVisible();

    await page.context().clearCookies();
    await page.goto("/auth/signin");
    await page.getByLabel("Email").fill(newEmail);
    await page.getByLabel("Password", { exact: true }).fill("supa-changed-2026");
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
    await expect(page.getByTestId("greeting")).toBeVisible();
  });
});
