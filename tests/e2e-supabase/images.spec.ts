import type { Locator } from "@playwright/test";
import { expect, test } from "../e2e/test";
import { messages } from "../../src/lib/messages";
import { makePng } from "../helpers/images";
import { addProduct, DEMO_ADMIN, FAKE_SUPABASE_URL, imageLoaded, signIn, signUp } from "./fixtures";

/**
 * On Supabase, images are Storage's public URLs, which the shop's pages hand to Next's image
 * optimiser (/_next/image?url=...). It answered 400 "url" parameter is not allowed: no
 * images.remotePatterns for the project's host, and the host (127.0.0.1 on `supabase start`) is
 * a private address. Each picture must reach the browser as real pixels.
 */
const publicPrefix = (bucket: string) => `${FAKE_SUPABASE_URL}/storage/v1/object/public/${bucket}/`;

/** The picture is served through the optimiser from the bucket's public URL, and has pixels. */
async function expectOptimisedFromStorage(image: Locator, bucket: string) {
  await expect.poll(() => image.evaluate(imageLoaded), { message: "the image has loaded" }).toBe(true);
  const src = await image.evaluate((img: HTMLImageElement) => img.currentSrc);
  const url = new URL(src);
  expect(url.pathname).toBe("/_next/image");
  expect(url.searchParams.get("url")).toContain(publicPrefix(bucket));
  const response = await image.page().request.get(src);
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toMatch(/^image\//);
}

test.describe("images from Supabase Storage", () => {
  test("a product an admin adds with an image shows it on the shop's card, the dashboard and a customer's cart", async ({ page, browser }) => {
    const name = `Amagwinya Tray ${Date.now()}`;
    await signIn(page, DEMO_ADMIN);
    await expect(page).toHaveURL(/\/admin\/dashboard$/);
    await page.getByRole("button", { name: "Add Product +" }).click();
    const form = page.getByRole("form", { name: "Add product" });
    await form.getByLabel("Name").fill(name);
    await form.getByLabel("Price (Rands)").fill("84");
    await form.getByLabel("Description").fill("Twenty-four golden amagwinya, fresh every morning.");
    await form.getByLabel("Category", { exact: true }).selectOption({ label: "Food Products" });
    await form.getByLabel("Image").setInputFiles({ name: "amagwinya.png", mimeType: "image/png", buffer: makePng(160, 120, 200) });
    await form.getByRole("button", { name: "Add Product" }).click();
    await expect(page.getByText(messages.admin.productAdded(name))).toBeVisible();

    // The dashboard's thumbnail.
    await page.reload();
    await expectOptimisedFromStorage(page.getByRole("img", { name, exact: true }).first(), "products-services");

    // The shop's card, as a visitor sees it.
    const visitor = await (await browser.newContext()).newPage();
    await visitor.goto(`/products?q=${encodeURIComponent(name)}`);
    const card = visitor.getByRole("list", { name: "Product list" }).getByRole("listitem");
    await expect(card).toHaveCount(1);
    await expectOptimisedFromStorage(card.locator("img"), "products-services");

    // The customer's cart line.
    const customer = await (await browser.newContext()).newPage();
    await signUp(customer, "images");
    await addProduct(customer, name);
    await customer.goto("/cart");
    const line = customer.getByRole("list", { name: "Cart items" }).getByRole("listitem").filter({ hasText: name });
    await expectOptimisedFromStorage(line.locator("img"), "products-services");
  });

  test("a customer's new profile picture shows on the profile and in the navigation bar", async ({ page }) => {
    await signUp(page, "avatar");
    await page.goto("/profile");
    await page.getByLabel("Upload New Picture").setInputFiles({ name: "me.png", mimeType: "image/png", buffer: makePng(96, 96, 40) });
    await expect(page.getByText(messages.profile.uploaded)).toBeVisible();
    await page.reload();
    await expectOptimisedFromStorage(page.getByRole("button", { name: /Profile picture of/ }).locator("img"), "avatars");
    // The header's small avatar is the public URL itself.
    const nav = page.getByTestId("nav-avatar");
    await expect(nav).toHaveAttribute("src", new RegExp(`^${publicPrefix("avatars").replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}`));
    await expect.poll(() => nav.evaluate(imageLoaded)).toBe(true);
  });
});
