/** A field with a length limit shows it as a person types: a counter, and at the limit a line that says so. */
import { expect, test } from "./test";
import { messages } from "../../src/lib/messages";
import { DEMO_ADMIN, signIn } from "./fixtures";

const { counter, reached } = messages.lengthLimit;

test.describe("length limits are shown as one types", () => {
  test("a product name: the count under it, and at 120 the limit is said, not silently cut", async ({ page }) => {
    await signIn(page, DEMO_ADMIN, "/admin/dashboard");
    await page.getByRole("button", { name: "Add Product +" }).click();
    const form = page.getByRole("form", { name: "Add product" });
    const name = form.getByLabel("Name");
    await expect(form.getByText(counter(0, 120), { exact: true })).toBeVisible();
    await name.fill("Vetkoek");
    await expect(form.getByText(counter(7, 120), { exact: true })).toBeVisible();
    await name.fill("");
    await name.pressSequentially("x".repeat(125));
    await expect(name).toHaveValue("x".repeat(120));
    await expect(form.getByText(`${reached(120)} ${counter(120, 120)}`)).toBeVisible();
    await expect(name).toHaveAttribute("aria-describedby", /.+/);
    await form.getByLabel("Description").fill("Twelve golden vetkoek.");
    await expect(form.getByText(counter(22, 2000), { exact: true })).toBeVisible();
  });

  test("the contact form's name and message", async ({ page }) => {
    await page.goto("/contact");
    const form = page.getByRole("form", { name: "Send us a message" });
    await form.getByLabel("Message").fill("Hello there");
    await expect(form.getByText(counter(11, 5000), { exact: true })).toBeVisible();
    await form.getByLabel("Name").fill("Thandi");
    await expect(form.getByText(counter(6, 100), { exact: true })).toBeVisible();
  });
});
