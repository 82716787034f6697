import { expect, test } from "@playwright/test";
import { messages } from "../../src/lib/messages";
import { makePng } from "../helpers/images";
import { DEMO_ADMIN, signIn } from "./fixtures";

const m = messages.admin;

test.describe("admin dashboard", () => {
  test("an admin adds a product with an image, it shows in the shop, then sets it unavailable and deletes it", async ({ page }) => {
    await signIn(page, DEMO_ADMIN);
    await expect(page).toHaveURL(/\/admin\/dashboard$/);
    await page.getByRole("button", { name: "Add Product +" }).click();
    const form = page.getByRole("form", { name: "Add product" });
    await form.getByRole("button", { name: "Add Product" }).click();
    await expect(page.getByText(m.productRequired)).toBeVisible();

    await form.getByLabel("Name").fill("Vetkoek Dozen");
    await form.getByLabel("Price (Rands)").fill("96.50");
    await form.getByLabel("Description").fill("Twelve golden vetkoek, with mince or jam.");
    await form.getByLabel("Category", { exact: true }).selectOption({ label: "Food Products" });
    await form.getByLabel("Image").setInputFiles({ name: "vetkoek.png", mimeType: "image/png", buffer: makePng(80, 60, 200) });
    await form.getByRole("button", { name: "Add Product" }).click();
    await expect(page.getByText(m.productAdded("Vetkoek Dozen"))).toBeVisible();

    await page.goto("/products?q=Vetkoek");
    const card = page.getByRole("list", { name: "Product list" }).getByRole("listitem");
    await expect(card).toHaveCount(1);
    await expect(card.getByText("R96.50")).toBeVisible();
    await expect.poll(() => card.locator("img").evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);

    await page.goto("/admin/dashboard");
    await page.getByRole("button", { name: "Set Unavailable Vetkoek Dozen" }).click();
    await expect(page.getByText(m.availabilityChanged("Vetkoek Dozen", false))).toBeVisible();
    await page.goto("/products?q=Vetkoek");
    await expect(page.getByText(messages.catalogue.emptyCategory)).toBeVisible();

    await page.goto("/admin/dashboard");
    page.once("dialog", (dialog) => void dialog.accept());
    await page.getByRole("button", { name: "Delete Vetkoek Dozen" }).click();
    await expect(page.getByText(m.productDeleted("Vetkoek Dozen"))).toBeVisible();
  });
});
