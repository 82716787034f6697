import { expect, test } from "./test";
import { messages } from "../../src/lib/messages";
import { DEMO_CUSTOMER } from "./fixtures";
import { serverOutput } from "./server-log";

test.describe("no secret reaches a log", () => {
  test("a failed sign-in puts the password in no console message and not in the server's output", async ({ page }) => {
    const password = `MySecretPassw0rd!-${Date.now()}`;
    const consoleMessages: string[] = [];
    const reading: Promise<unknown>[] = [];
    page.on("console", (message) => {
      consoleMessages.push(message.text());
      // The text shows an object argument as "Object": its values are read too.
      reading.push(
        Promise.all(message.args().map((arg) => arg.jsonValue().catch(() => null))).then((values) => consoleMessages.push(JSON.stringify(values))),
      );
    });
    page.on("pageerror", (error) => consoleMessages.push(String(error)));

    await page.goto("/auth/signin");
    await page.getByLabel("Email").fill(DEMO_CUSTOMER.email);
    await page.getByLabel("Password", { exact: true }).fill(password);
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
    await expect(page.getByText(`${messages.auth.errorPrefix}${messages.auth.invalidCredentials}`)).toBeVisible();
    // Twice: the second refusal is the one a logger would print as an error after the first.
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
    await expect(page.getByText(`${messages.auth.errorPrefix}${messages.auth.invalidCredentials}`)).toBeVisible();

    await Promise.all(reading);
    expect(consoleMessages.filter((text) => text.includes(password))).toEqual([]);
    expect(consoleMessages.filter((text) => text.includes("auth.signIn"))).toEqual([]);
    expect(serverOutput()).not.toContain(password);
  });
});
