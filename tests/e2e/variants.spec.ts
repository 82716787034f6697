import type { Browser, Page } from "@playwright/test";
import { expect, test } from "./test";
import { messages } from "../../src/lib/messages";
import { makePng } from "../helpers/images";
import { DEMO_ADMIN, signIn, uniqueEmail } from "./fixtures";

const SHIRT = "Embroidered Company Golf Shirt";
const LARGE_NAVY = `${SHIRT} — L / Navy`;

async function newCustomer(browser: Browser, name: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto("/auth/signup");
  await page.getByLabel("Full name").fill(name);
  await page.getByLabel("Email").fill(uniqueEmail("variants"));
  await page.getByLabel("Password", { exact: true }).fill("variants-2026");
  await page.getByLabel("Confirm password", { exact: true }).fill("variants-2026");
  await page.getByLabel("I agree to the Terms & Privacy Policy").check();
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByTestId("greeting")).toBeVisible();
  return page;
}

async function openShirt(page: Page) {
  await page.goto(`/products?q=${encodeURIComponent("Golf Shirt")}`);
  const card = page.getByRole("list", { name: "Product list" }).getByRole("listitem").filter({ hasText: SHIRT });
  // A product with options is added from its page, where they are chosen.
  await card.getByRole("link", { name: messages.catalogue.chooseOptions }).click();
  await expect(page.getByRole("heading", { level: 1, name: SHIRT })).toBeVisible();
}

/** Taps a choice as a shopper does: on its label (the radio itself is visually hidden). */
async function choose(page: Page, choice: string) {
  await page.locator("label").filter({ has: page.getByRole("radio", { name: new RegExp(`^${choice}\\b`) }) }).click();
}

async function chooseLargeNavy(page: Page) {
  await choose(page, "L");
  await choose(page, "Navy");
  await expect(page.getByRole("group", { name: /^Size/ })).toContainText("Size: L");
  await expect(page.getByRole("group", { name: /^Colour/ })).toContainText("Colour: Navy");
}

async function checkOut(page: Page) {
  await page.goto("/checkout");
  const reference = (await page.getByTestId("payment-reference").textContent())!;
  await page.getByLabel(/^Proof of payment/).setInputFiles({ name: "proof.png", mimeType: "image/png", buffer: makePng(40, 30) });
  await page.getByRole("button", { name: "Complete Payment" }).click();
  await expect(page.getByText(messages.checkout.success(reference))).toBeVisible();
  return reference;
}

test.describe("options, variants and stock", () => {
  test("the owner gives the golf shirt sizes and colours with counted stock; customers buy L / Navy until it is sold out, and every screen names the variant", async ({ page, browser }) => {
    // Two customers sign up and check out: longer than one page's journey.
    test.setTimeout(120_000);
    // The owner sets the options and counts two L / Navy shirts at a dearer price.
    await signIn(page, DEMO_ADMIN);
    await page.goto("/admin/dashboard");
    const item = page.getByRole("list", { name: "Products" }).getByRole("listitem").filter({ hasText: SHIRT });
    await item.getByRole("button", { name: `Options and stock of ${SHIRT}` }).click();
    const options = item.getByRole("form", { name: "Options" });
    await options.getByRole("button", { name: "Add option" }).click();
    await options.getByLabel("Option 1 name").fill("Size");
    await options.getByLabel("Choices, separated by commas").first().fill("M, L");
    await options.getByRole("button", { name: "Add option" }).click();
    await options.getByLabel("Option 2 name").fill("Colour");
    await options.getByLabel("Choices, separated by commas").nth(1).fill("Navy, White");
    await options.getByRole("button", { name: "Save options" }).click();
    await expect(page.getByText(messages.admin.variants.optionsSaved(SHIRT, 4))).toBeVisible();

    const grid = item.getByRole("form", { name: "Variants" });
    await grid.getByLabel("Price of L / Navy").fill("199.00");
    await grid.getByLabel("Stock of L / Navy").fill("2");
    await grid.getByLabel("Stock of L / White").fill("abc");
    await grid.getByRole("button", { name: "Save variants" }).click();
    await expect(grid.getByRole("alert")).toHaveText(messages.admin.variants.stockInvalid);
    await grid.getByLabel("Stock of L / White").fill("");
    await grid.getByRole("button", { name: "Save variants" }).click();
    await expect(page.getByText(messages.admin.variants.variantsSaved(SHIRT))).toBeVisible();
    await expect(item).toContainText("4 variants");
    await expect(item).toContainText("2 in stock");

    // A customer picks L / Navy: its price and "Only 2 left", then adds it.
    const first = await newCustomer(browser, "Sipho Dlamini");
    await openShirt(first);
    await chooseLargeNavy(first);
    await expect(first.getByTestId("variant-price")).toHaveText("R199");
    await expect(first.getByText(messages.catalogue.fewLeft(2))).toBeVisible();
    await first.getByRole("article").getByRole("button", { name: "Add to Cart" }).click();
    await expect(first.getByText(messages.cart.added(LARGE_NAVY))).toBeVisible();
    await first.goto("/cart");
    await expect(first.getByRole("list", { name: "Cart items" })).toContainText(LARGE_NAVY);
    const firstReference = await checkOut(first);

    // The order page and purchase history name the variant; so does Order Management.
    await first.goto(`/profile/orders/${firstReference}`);
    await expect(first.getByText(LARGE_NAVY).first()).toBeVisible();
    await page.goto(`/admin/orders?q=${firstReference}`);
    await expect(page.getByText(new RegExp(`${LARGE_NAVY} x 1`))).toBeVisible();

    // One left for the next customer, who buys it; then it is sold out and cannot be chosen.
    const second = await newCustomer(browser, "Naledi Khumalo");
    await openShirt(second);
    await chooseLargeNavy(second);
    await expect(second.getByText(messages.catalogue.fewLeft(1))).toBeVisible();
    await second.getByRole("article").getByRole("button", { name: "Add to Cart" }).click();
    await expect(second.getByText(messages.cart.added(LARGE_NAVY))).toBeVisible();
    await checkOut(second);

    // Sold out: with Navy chosen, L cannot be chosen; with White it can, and then Navy cannot.
    await openShirt(first);
    await expect(first.getByRole("radio", { name: /^L\b/ })).toBeDisabled();
    await expect(first.getByRole("radio", { name: /^L\b/ })).toHaveAccessibleName(`L (${messages.catalogue.soldOut})`);
    await choose(first, "White");
    await choose(first, "L");
    await expect(first.getByRole("radio", { name: /^Navy/ })).toBeDisabled();
    await expect(first.getByRole("radio", { name: /^Navy/ })).toHaveAccessibleName(`Navy (${messages.catalogue.soldOut})`);
    await expect(first.getByRole("article").getByRole("button", { name: "Add to Cart" })).toBeEnabled();

    // Back to one variant, as the other tests expect the shirt.
    await page.goto("/admin/dashboard");
    await item.getByRole("button", { name: `Options and stock of ${SHIRT}` }).click();
    const again = item.getByRole("form", { name: "Options" });
    await again.getByRole("button", { name: "Remove option 2" }).click();
    await again.getByRole("button", { name: "Remove option 1" }).click();
    await again.getByRole("button", { name: "Save options" }).click();
    await expect(page.getByText(messages.admin.variants.optionsSaved(SHIRT, 1))).toBeVisible();
  });
});
