import { expect, test } from "./test";
import type { Page } from "@playwright/test";
import { accountMessages, messages } from "../../src/lib/messages";
import { uniqueEmail } from "./fixtures";

/*
 * Account recovery and account settings in the browser (issue 34): "Forgot password?", the mailed
 * link, the new password, and the profile's password and e-mail changes. The mails are read from
 * the SMTP server the e2e server sends to (scripts/e2e-server.ts serves them at E2E_PORT+52).
 */

const a = accountMessages;
const MAIL_READER = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 3100) + 52}`;

interface Mail {
  to: string[];
  subject: string;
  text: string;
}

async function mailsTo(address: string): Promise<Mail[]> {
  const response = await fetch(MAIL_READER);
  return ((await response.json()) as Mail[]).filter((mail) => mail.to.includes(address));
}

/** The newest link to `path` mailed to `address` (waits for the mail to arrive). */
async function linkMailedTo(address: string, path: string): Promise<string> {
  const pattern = new RegExp(`https?://[^\\s\\]]+${path}\\?token=[A-Za-z0-9_-]+`);
  let link: string | undefined;
  await expect
    .poll(async () => {
      const mails = await mailsTo(address);
      link = mails.map((mail) => pattern.exec(mail.text)?.[0]).filter(Boolean).at(-1);
      return link;
    }, { timeout: 20_000 })
    .toBeTruthy();
  return link!;
}

async function signUp(page: Page, email: string, password: string) {
  await page.goto("/auth/signup");
  await page.getByLabel("Full name").fill("Nomsa Recovery");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByLabel("Confirm password", { exact: true }).fill(password);
  await page.getByLabel("I agree to the Terms & Privacy Policy").check();
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByTestId("greeting")).toBeVisible();
}

async function trySignIn(page: Page, email: string, password: string) {
  await page.goto("/auth/signin");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
}

async function askForReset(page: Page, email: string) {
  await page.goto("/auth/signin");
  await page.getByRole("link", { name: a.forgotLink }).first().click();
  await expect(page).toHaveURL(/\/auth\/forgot$/);
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Send me a reset link" }).click();
  await expect(page.getByText(a.resetRequested)).toBeVisible();
}

async function setNewPassword(page: Page, link: string, password: string) {
  await page.goto(link);
  await page.getByLabel("New password", { exact: true }).fill(password);
  await page.getByLabel("Confirm new password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Set new password" }).click();
}

test.describe("forgot password", () => {
  // Several sign-ins, two devices and a mail round trip: more than the default 30 s on a busy 2-core machine.
  test.describe.configure({ timeout: 90_000 });
  test("a customer resets a forgotten password from the mailed link: signed in, other sessions ended, old password and second use refused", async ({ page, browser }) => {
    const email = uniqueEmail("recover");
    await signUp(page, email, "first-pass-2026");
    // Another device stays signed in until the reset.
    const other = await browser.newContext();
    const otherPage = await other.newPage();
    await trySignIn(otherPage, email, "first-pass-2026");
    await expect(otherPage.getByTestId("greeting")).toBeVisible();

    await page.context().clearCookies();
    await askForReset(page, email);
    // An address with no account gets the very same answer, and no mail.
    const nobody = uniqueEmail("nobody");
    await askForReset(page, nobody);

    const link = await linkMailedTo(email, "/auth/reset");
    await setNewPassword(page, link, "second-pass-2026");
    await expect(page.getByText(a.passwordReset)).toBeVisible();
    await expect(page.getByTestId("greeting")).toBeVisible();
    // A moment later the shop takes the customer on to the products (a page load, which a goto
    // started before it would be aborted by).
    await expect(page).toHaveURL(/\/products$/);
    expect(await mailsTo(nobody)).toEqual([]);

    await otherPage.goto("/profile");
    await expect(otherPage).toHaveURL(/\/auth\/signin/);
    await other.close();

    await page.context().clearCookies();
    await trySignIn(page, email, "first-pass-2026");
    await expect(page.getByText(messages.auth.errorPrefix + messages.auth.invalidCredentials)).toBeVisible();
    await trySignIn(page, email, "second-pass-2026");
    await expect(page.getByTestId("greeting")).toBeVisible();

    // The link works once.
    await page.context().clearCookies();
    await setNewPassword(page, link, "third-pass-2026");
    await expect(page.getByText(a.resetLinkInvalid)).toBeVisible();
    await expect(page.getByRole("link", { name: "Ask for a new link" })).toBeVisible();
  });

  test("the lock-out message offers the way out", async ({ page }) => {
    const email = uniqueEmail("locked");
    await signUp(page, email, "locked-pass-2026");
    await page.context().clearCookies();
    for (let i = 0; i < 5; i++) {
      await trySignIn(page, email, `wrong-${i}-2026`);
      await expect(page.getByText(messages.auth.errorPrefix + messages.auth.invalidCredentials)).toBeVisible();
    }
    await trySignIn(page, email, "wrong-again-2026");
    await expect(page.getByText(/Too many failed sign-in attempts/)).toBeVisible();
    await page.getByTestId("locked-out-help").getByRole("link", { name: a.forgotLink }).click();
    await expect(page).toHaveURL(/\/auth\/forgot$/);
  });
});

test.describe("account settings", () => {
  test.describe.configure({ timeout: 90_000 });
  test("a customer changes the password (current one required) and the e-mail address (confirmed from the new inbox, the old one told)", async ({ page }) => {
    const email = uniqueEmail("settings");
    await signUp(page, email, "settings-pass-2026");
    await page.goto("/profile");

    const passwordForm = page.locator("form", { has: page.getByRole("heading", { name: "Change password" }) });
    await passwordForm.getByLabel("Current password", { exact: true }).fill("not-my-password");
    await passwordForm.getByLabel("New password", { exact: true }).fill("settings-new-2026");
    await passwordForm.getByLabel("Confirm new password", { exact: true }).fill("settings-new-2026");
    await passwordForm.getByRole("button", { name: "Change password" }).click();
    await expect(page.getByText(a.currentPasswordWrong)).toBeVisible();
    await passwordForm.getByLabel("Current password", { exact: true }).fill("settings-pass-2026");
    await passwordForm.getByRole("button", { name: "Change password" }).click();
    await expect(page.getByText(a.passwordChanged)).toBeVisible();

    const newEmail = uniqueEmail("moved");
    const emailForm = page.locator("form", { has: page.getByRole("heading", { name: "Change e-mail address" }) });
    await emailForm.getByLabel("New email address").fill(newEmail);
    await emailForm.getByRole("button", { name: "Send confirmation link" }).click();
    await expect(page.getByText(a.emailChangeRequested(newEmail))).toBeVisible();

    const link = await linkMailedTo(newEmail, "/auth/confirm-email");
    await expect.poll(async () => (await mailsTo(email)).some((mail) => mail.text.includes(newEmail)), { timeout: 20_000 }).toBe(true);
    await page.goto(link);
    await page.getByRole("button", { name: "Confirm my new address" }).click();
    await expect(page.getByText(a.emailChanged(newEmail))).toBeVisible();
    await page.goto("/profile");
    await expect(page.getByText(newEmail)).toBeVisible();

    await page.context().clearCookies();
    await trySignIn(page, newEmail, "settings-new-2026");
    await expect(page.getByTestId("greeting")).toBeVisible();
  });
});
