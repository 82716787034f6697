import type { Page } from "@playwright/test";
import { expect, test } from "./test";
import { messages } from "../../src/lib/messages";
import { makePng } from "../helpers/images";
import { DEMO_ADMIN, signIn, uniqueEmail } from "./fixtures";

async function signUp(page: Page) {
  await page.goto("/auth/signup");
  await page.getByLabel("Full name").fill("Lerato Mokoena");
  await page.getByLabel("Email").fill(uniqueEmail("cart"));
  await page.getByLabel("Password", { exact: true }).fill("checkout-2026");
  await page.getByLabel("Confirm password", { exact: true }).fill("checkout-2026");
  await page.getByLabel("I agree to the Terms & Privacy Policy").check();
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByTestId("greeting")).toBeVisible();
}

async function addProduct(page: Page, search: string) {
  await page.goto(`/products?q=${encodeURIComponent(search)}`);
  await page.getByRole("list", { name: "Product list" }).getByRole("link").first().click();
  // The list's cards have their own Add to Cart: wait for the product's page.
  await expect(page).toHaveURL(/\/products\/[0-9a-f-]{36}$/);
  await page.getByRole("button", { name: "Add to Cart" }).first().click();
  await expect(page.getByText(/added to cart\.|quantity updated in cart\./).first()).toBeVisible();
}

test.describe("cart and checkout", () => {
  test("add three products, change quantities, remove one, pay with a real PNG, and see the success and the redirect", async ({ page, context }) => {
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    await signUp(page);
    await addProduct(page, "Steak & Kidney");
    await addProduct(page, "Beef Noodles");
    await addProduct(page, "Branded Cap");
    await expect(page.getByTestId("cart-count")).toContainText("3");

    await page.goto("/cart");
    const items = page.getByRole("list", { name: "Cart items" }).getByRole("listitem");
    await expect(items).toHaveCount(3);
    await page.getByRole("button", { name: "Increase quantity of Steak & Kidney Pies (6-pack)" }).click();
    await expect(page.getByText(messages.cart.quantityUpdated("Steak & Kidney Pies (6-pack)"))).toBeVisible();
    await expect(items.first().getByTestId("quantity")).toHaveText("2");
    await page.getByRole("button", { name: "Remove Branded Cap" }).click();
    await expect(page.getByText(messages.cart.removed)).toBeVisible();
    await expect(items).toHaveCount(2);
    // 2 × R150 + R65
    await expect(page.getByTestId("cart-total")).toHaveText("R365");

    await page.getByRole("link", { name: "Proceed to Checkout" }).click();
    await expect(page).toHaveURL(/\/checkout$/);
    const reference = (await page.getByTestId("payment-reference").textContent())!;
    expect(reference).toMatch(/^ORD-\d{1,6}$/);
    await expect(page.getByTestId("checkout-total")).toHaveText("R365");

    // One reference per checkout: a reload (as mobile browsers do on return from the banking
    // app) and a second tab show the same one.
    await page.reload();
    await expect(page.getByTestId("payment-reference")).toHaveText(reference);
    await expect(page.getByTestId("checkout-total")).toHaveText("R365");

    // Copy puts the reference on the clipboard and says so, without moving anything.
    const copyReference = page.getByRole("button", { name: messages.checkout.copyLabel("reference") });
    const boxBefore = await copyReference.boundingBox();
    await copyReference.click();
    await expect(copyReference.getByText(messages.checkout.copied)).toBeVisible();
    await expect(page.getByRole("status").filter({ hasText: messages.checkout.copiedAnnouncement("reference") })).toBeAttached();
    expect(await copyReference.boundingBox()).toEqual(boxBefore);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(reference);
    await expect(copyReference.getByText(messages.checkout.copy, { exact: true })).toBeVisible();

    // A second tab without the Clipboard API (as over plain HTTP): same reference, and Copy selects the value instead.
    const second = await context.newPage();
    await second.addInitScript(() => Object.defineProperty(Navigator.prototype, "clipboard", { get: () => undefined }));
    await second.goto("/checkout");
    await expect(second.getByTestId("payment-reference")).toHaveText(reference);
    const copyAccount = second.getByRole("button", { name: messages.checkout.copyLabel("account number") });
    await copyAccount.click();
    await expect(copyAccount.getByText(messages.checkout.selected)).toBeVisible();
    const accountNumber = await second.locator("#bank-account-number").textContent();
    expect(await second.evaluate(() => window.getSelection()?.toString())).toBe(accountNumber);
    await second.close();

    await page.getByRole("button", { name: "Complete Payment" }).click();
    await expect(page.getByText(messages.checkout.proofRequired)).toBeVisible();

    await page.getByLabel(/^Proof of payment/).setInputFiles({ name: "eft-slip.png", mimeType: "image/png", buffer: makePng(64, 48) });
    await page.getByRole("button", { name: "Complete Payment" }).click();
    await expect(page.getByText(messages.checkout.success(reference))).toBeVisible();
    await expect(page).toHaveURL(/\/products$/, { timeout: 10_000 });
    await page.goto("/cart");
    await expect(page.getByText(messages.cart.empty)).toBeVisible();
  });

  test("the cart updates live in a second tab", async ({ page, context }) => {
    // A new customer, so the second tab's cart is known to start empty (the demo customer's is shared).
    await signUp(page);
    const second = await context.newPage();
    await second.goto("/cart");
    await expect(second.getByText(messages.cart.empty)).toBeVisible();
    await addProduct(page, "Lunchbox Treats");
    const line = second.getByRole("list", { name: "Cart items" }).getByRole("listitem").filter({ hasText: "Lunchbox Treats Box" });
    await expect(line.getByTestId("quantity")).toHaveText("1", { timeout: 5_000 });
    await addProduct(page, "Lunchbox Treats");
    await expect(line.getByTestId("quantity")).toHaveText("2", { timeout: 5_000 });
  });

  test("guards: visitors sign in first, admins go to their dashboard", async ({ page }) => {
    for (const path of ["/cart", "/checkout"]) {
      await page.goto(path);
      await expect(page).toHaveURL(new RegExp(`/auth/signin\\?next=${encodeURIComponent(path).replace(/\//g, "%2F")}`));
    }
    await signIn(page, DEMO_ADMIN);
    await page.goto("/cart");
    await expect(page).toHaveURL(/\/admin\/dashboard$/);
  });

  test("a customer cannot fetch another customer's proof by its URL", async ({ browser }) => {
    const owner = await browser.newPage();
    await signUp(owner);
    await addProduct(owner, "Beef Noodles");
    await owner.goto("/checkout");
    await owner.getByLabel(/^Proof of payment/).setInputFiles({ name: "mine.png", mimeType: "image/png", buffer: makePng(8, 8) });
    await owner.getByRole("button", { name: "Complete Payment" }).click();
    await expect(owner.getByText(/Order placed successfully/)).toBeVisible();
    const proofUrl = await owner.evaluate(async () => {
      const response = await fetch("/api/trpc/orders.mine");
      const body = (await response.json()) as { result: { data: { json: { proofUrl: string }[] } } };
      return body.result.data.json[0]!.proofUrl;
    });
    expect(proofUrl).toMatch(/^\/files\/payments\//);
    const own = await owner.request.get(proofUrl);
    expect(own.status()).toBe(200);
    expect(own.headers()["content-type"]).toBe("image/png");
    expect(own.headers()["x-content-type-options"]).toBe("nosniff");

    const other = await browser.newPage();
    await signUp(other);
    expect((await other.request.get(proofUrl)).status()).toBe(404);
    await other.close();
    const visitor = await browser.newPage();
    expect((await visitor.request.get(proofUrl)).status()).toBe(404);
    await visitor.close();
    await owner.close();
  });
});

test.describe("profile", () => {
  test("visitors are sent to sign in; a customer sees their details and real purchase history", async ({ page }) => {
    await page.goto("/profile");
    await expect(page).toHaveURL(/\/auth\/signin\?next=%2Fprofile&reason=profile$/);
    await signUp(page);
    await page.goto("/profile");
    await expect(page.getByRole("main").getByText("Lerato Mokoena")).toBeVisible();
    await expect(page.getByText(messages.profile.noHistory)).toBeVisible();
    await addProduct(page, "Beef Noodles");
    await page.goto("/checkout");
    await page.getByLabel(/^Proof of payment/).setInputFiles({ name: "slip.png", mimeType: "image/png", buffer: makePng(8, 8) });
    await page.getByRole("button", { name: "Complete Payment" }).click();
    await expect(page.getByText(/Order placed successfully/)).toBeVisible();
    await page.goto("/profile");
    const order = page.getByRole("list", { name: "Orders" }).getByRole("listitem");
    await expect(order).toHaveCount(1);
    await expect(order.getByText("Beef Noodles Bowl")).toBeVisible();
    await expect(order.getByRole("cell", { name: "R65.00" })).toBeVisible();
    await expect(order.getByText("Total R65.00")).toBeVisible();
    await expect(order.getByTestId("order-status")).toHaveText(messages.orderStatus.pending_payment);
    await page.getByRole("button", { name: /Profile picture of/ }).click();
    await expect(page.getByRole("link", { name: "Cart", exact: true }).last()).toBeVisible();
  });

  test("a signed-in non-admin is sent from admin pages to the profile", async ({ page }) => {
    await signUp(page);
    await page.goto("/admin/dashboard");
    await expect(page).toHaveURL(/\/profile$/);
  });
});

test.describe("profile picture and deletion", () => {
  test("a new picture shows after reload and in the navigation bar; deleting the profile ends sign-in", async ({ page }) => {
    await signUp(page);
    const email = await page.evaluate(async () => {
      const response = await fetch("/api/trpc/auth.session");
      const body = (await response.json()) as { result: { data: { json: { email: string } } } };
      return body.result.data.json.email;
    });
    await page.goto("/profile");
    await page.getByLabel("Upload New Picture").setInputFiles({ name: "me.png", mimeType: "image/png", buffer: makePng(48, 48, 30) });
    await expect(page.getByText(messages.profile.uploaded)).toBeVisible();
    await page.reload();
    const picture = page.getByRole("button", { name: /Profile picture of/ }).locator("img");
    await expect(picture).toHaveAttribute("src", /avatars(\/|%2F)/);
    await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    await expect(page.getByTestId("nav-avatar")).toHaveAttribute("src", /\/files\/avatars\//);

    page.once("dialog", (dialog) => {
      expect(dialog.message()).toBe(messages.profile.deleteConfirm);
      void dialog.accept();
    });
    await page.getByRole("button", { name: "Delete Profile" }).click();
    await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Sign In" })).toBeVisible();
    await page.goto("/auth/signin");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password", { exact: true }).fill("checkout-2026");
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
    await expect(page.getByText(`${messages.auth.errorPrefix}${messages.auth.invalidCredentials}`)).toBeVisible();
  });
});
