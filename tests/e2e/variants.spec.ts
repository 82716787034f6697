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
  test("the owner gives the golf shirt sizes, colours, counted stock and a name and logo to add; customers buy L / Navy with theirs until it is sold out, and every screen names both", async ({ page, browser }) => {
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

    // A name to embroider (required, up to 12 characters, R25 more) and an optional logo.
    const personalisation = item.getByRole("form", { name: "Personalisation" });
    await personalisation.getByRole("button", { name: "Add field" }).click();
    await personalisation.getByLabel("Field 1 label").fill("Name on the shirt");
    await personalisation.getByLabel("Max length").first().fill("12");
    await personalisation.getByLabel("Price (R)").first().fill("25");
    await personalisation.getByLabel("Required").first().check();
    await personalisation.getByRole("button", { name: "Add field" }).click();
    await personalisation.getByLabel("Field 2 label").fill("Logo");
    await personalisation.getByLabel("Kind").nth(1).selectOption("file");
    await personalisation.getByRole("button", { name: "Save personalisation" }).click();
    await expect(page.getByText(messages.admin.variants.personalisationSaved(SHIRT))).toBeVisible();

    // A customer picks L / Navy: its price and "Only 2 left", then adds it.
    const first = await newCustomer(browser, "Sipho Dlamini");
    await openShirt(first);
    await chooseLargeNavy(first);
    await expect(first.getByTestId("variant-price")).toHaveText("R199");
    await expect(first.getByText(messages.catalogue.fewLeft(2))).toBeVisible();
    // Without the required name it is refused, saying which field.
    await first.getByRole("article").getByRole("button", { name: "Add to Cart" }).click();
    await expect(first.getByText(messages.cart.personalisationRequired("Name on the shirt"))).toBeVisible();
    await first.getByLabel(/^Name on the shirt/).fill("Sipho D");
    await expect(first.getByTestId("variant-price")).toHaveText("R224");
    await first.getByLabel(/^Logo/).setInputFiles({ name: "sipho-logo.png", mimeType: "image/png", buffer: makePng(60, 40) });
    await expect(first.getByTestId("attached-file")).toHaveText("sipho-logo.png");
    await first.getByRole("article").getByRole("button", { name: "Add to Cart" }).click();
    await expect(first.getByText(messages.cart.added(LARGE_NAVY))).toBeVisible();
    await first.goto("/cart");
    const cartLine = first.getByRole("list", { name: "Cart items" }).getByRole("listitem").first();
    await expect(cartLine).toContainText(LARGE_NAVY);
    await expect(cartLine.getByTestId("personalisation")).toContainText("Name on the shirt:Sipho D");
    await expect(cartLine.getByRole("link", { name: "sipho-logo.png" })).toBeVisible();
    const firstReference = await checkOut(first);

    // The order page names the variant and the personalisation; so does Order Management, whose logo link opens the file.
    await first.goto(`/profile/orders/${firstReference}`);
    await expect(first.getByText(LARGE_NAVY).first()).toBeVisible();
    await expect(first.getByTestId("personalisation").first()).toContainText("Sipho D");
    await page.goto(`/admin/orders?q=${firstReference}`);
    await expect(page.getByText(new RegExp(`${LARGE_NAVY} x 1`))).toBeVisible();
    await expect(page.getByTestId("personalisation").first()).toContainText("Sipho D");
    const logoUrl = await page.getByRole("link", { name: "sipho-logo.png" }).getAttribute("href");
    expect((await page.request.get(logoUrl!)).status()).toBe(200);
    expect((await (await browser.newContext()).request.get(new URL(logoUrl!, page.url()).toString())).status()).toBe(404);

    // One left for the next customer, who buys it; then it is sold out and cannot be chosen.
    const second = await newCustomer(browser, "Naledi Khumalo");
    await openShirt(second);
    await chooseLargeNavy(second);
    await expect(second.getByText(messages.catalogue.fewLeft(1))).toBeVisible();
    await second.getByLabel(/^Name on the shirt/).fill("Naledi K");
    await second.getByRole("article").getByRole("button", { name: "Add to Cart" }).click();
    await expect(second.getByText(messages.cart.added(LARGE_NAVY))).toBeVisible();
    await checkOut(second);

    // Sold out: L (with Navy) says so and cannot be added; it can be chosen only to ask to be told when it is back.
    await openShirt(first);
    await expect(first.getByRole("radio", { name: /^L\b/ })).toHaveAccessibleName(`L (${messages.catalogue.soldOut})`);
    await choose(first, "L");
    await expect(first.getByText(messages.catalogue.soldOut, { exact: true })).toBeVisible();
    await expect(first.getByRole("article").getByRole("button", { name: "Add to Cart" })).toBeDisabled();
    await expect(first.getByRole("button", { name: messages.stockNotices.ask })).toBeVisible();
    await choose(first, "White");
    await expect(first.getByRole("radio", { name: /^Navy/ })).toHaveAccessibleName(`Navy (${messages.catalogue.soldOut})`);
    await expect(first.getByRole("article").getByRole("button", { name: "Add to Cart" })).toBeEnabled();

    // Back to one variant without personalisation, as the other tests expect the shirt.
    await page.goto("/admin/dashboard");
    await item.getByRole("button", { name: `Options and stock of ${SHIRT}` }).click();
    const fields = item.getByRole("form", { name: "Personalisation" });
    await fields.getByRole("button", { name: "Remove field 2" }).click();
    await fields.getByRole("button", { name: "Remove field 1" }).click();
    await fields.getByRole("button", { name: "Save personalisation" }).click();
    await expect(page.getByText(messages.admin.variants.personalisationSaved(SHIRT))).toBeVisible();
    const again = item.getByRole("form", { name: "Options" });
    await again.getByRole("button", { name: "Remove option 2" }).click();
    await again.getByRole("button", { name: "Remove option 1" }).click();
    await again.getByRole("button", { name: "Save options" }).click();
    await expect(page.getByText(messages.admin.variants.optionsSaved(SHIRT, 1))).toBeVisible();
  });
});
