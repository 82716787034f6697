import { expect, test } from "../e2e/test";
import { messages } from "../../src/lib/messages";
import { makePng } from "../helpers/images";
import { addProduct, DEMO_ADMIN, fakeSupabase, sessionUserId, signIn, signUp } from "./fixtures";

/** What worked on Supabase's own servers keeps working: cart, checkout with a proof, deletion. */
test.describe("shopping on Supabase", () => {
  test("a customer fills the cart, pays with a PNG stored under payments/{uid}/, and the admin opens the proof", async ({ page, browser }) => {
    await signUp(page, "checkout");
    const userId = await sessionUserId(page);
    await addProduct(page, "Steak & Kidney");
    await addProduct(page, "Branded Cap");
    await page.goto("/cart");
    const items = page.getByRole("list", { name: "Cart items" }).getByRole("listitem");
    await expect(items).toHaveCount(2);
    await page.getByRole("button", { name: "Increase quantity of Steak & Kidney Pies (6-pack)" }).click();
    await expect(page.getByText(messages.cart.quantityUpdated("Steak & Kidney Pies (6-pack)"))).toBeVisible();
    await page.getByRole("button", { name: "Remove Branded Cap" }).click();
    await expect(page.getByText(messages.cart.removed)).toBeVisible();
    await expect(items).toHaveCount(1);
    await expect(page.getByTestId("cart-total")).toHaveText("R300");

    await page.getByRole("link", { name: "Proceed to Checkout" }).click();
    const reference = (await page.getByTestId("payment-reference").textContent())!;
    await page.getByLabel(/^Proof of payment/).setInputFiles({ name: "eft slip.png", mimeType: "image/png", buffer: makePng(120, 90, 90) });
    await page.getByRole("button", { name: "Complete Payment" }).click();
    await expect(page.getByText(messages.checkout.success(reference))).toBeVisible();
    await page.goto("/cart");
    await expect(page.getByText(messages.cart.empty)).toBeVisible();

    // Supabase Storage holds the proof in the customer's own folder, as the storage policies require.
    const proofs = (await fakeSupabase.storedObjects("payments")).filter((object) => object.ownerId === userId);
    expect(proofs).toHaveLength(1);
    expect(proofs[0]!.name).toMatch(new RegExp(`^${userId}/\\d+_[^/]+\\.png$`));
    expect(proofs[0]!.mimetype).toBe("image/png");

    // The admin sees it through a signed URL of the private bucket.
    const admin = await (await browser.newContext()).newPage();
    await signIn(admin, DEMO_ADMIN);
    await admin.goto("/admin/orders");
    const card = admin.getByTestId("order-card").filter({ hasText: reference });
    await card.getByRole("button").filter({ has: admin.getByRole("img") }).click();
    const dialog = admin.getByRole("dialog", { name: `Proof of payment for ${reference}` });
    await expect.poll(() => dialog.getByRole("img").evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(120);
    expect(await dialog.getByRole("img").getAttribute("src")).toContain("/storage/v1/object/sign/payments/");
  });

  test("deleting the profile removes the Supabase account: its password no longer signs in", async ({ page }) => {
    const account = await signUp(page, "delete");
    await page.goto("/profile");
    page.once("dialog", (dialog) => void dialog.accept());
    await page.getByRole("button", { name: "Delete Profile" }).click();
    await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Sign In" })).toBeVisible();

    await page.goto("/auth/signin");
    await page.getByLabel("Email").fill(account.email);
    await page.getByLabel("Password", { exact: true }).fill(account.password);
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
    await expect(page.getByText(`${messages.auth.errorPrefix}${messages.auth.invalidCredentials}`)).toBeVisible();
  });
});
