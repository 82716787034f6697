import { expect, test } from "./test";
import { messages } from "../../src/lib/messages";
import { makePng } from "../helpers/images";
import { DEMO_ADMIN, newCustomerAtCheckout, signIn } from "./fixtures";

/** Order Management's proof of payment, large: the browser's modal <dialog> (docs/architecture.md#components). */
test("the proof dialog is modal, closes on Escape, on the backdrop and on Close, and gives focus back to the thumbnail", async ({ page, browser }) => {
  const reference = await newCustomerAtCheckout(page, "Dialog Payer", "dialog");
  await page.getByLabel(/^Proof of payment/).setInputFiles({ name: "proof.png", mimeType: "image/png", buffer: makePng(120, 90, 90) });
  await page.getByRole("button", { name: "Complete Payment" }).click();
  await expect(page.getByText(messages.checkout.success(reference))).toBeVisible();

  const admin = await (await browser.newContext()).newPage();
  await signIn(admin, DEMO_ADMIN);
  await admin.goto(`/admin/orders?q=${reference}`);
  const thumbnail = admin.getByTestId("order-card").filter({ hasText: reference }).getByRole("button", { name: `Proof of payment for ${reference}` });
  const dialog = admin.getByRole("dialog", { name: `Proof of payment for ${reference}` });
  const close = dialog.getByRole("button", { name: "Close" });

  // Opened as a modal: focus goes to Close, the page behind is inert, the backdrop is the dark overlay.
  await thumbnail.click();
  await expect(dialog).toBeVisible();
  await expect(close).toBeFocused();
  expect(await dialog.evaluate((element: HTMLDialogElement) => element.matches(":modal"))).toBe(true);
  expect(await dialog.evaluate((element) => getComputedStyle(element, "::backdrop").backgroundColor)).toMatch(/^(rgba\(0, 0, 0, 0\.7\)|oklab\(0 0 0 \/ 0\.7\))$/);
  // Tab stays in the dialog: the page behind cannot take focus.
  await admin.keyboard.press("Tab");
  expect(await admin.evaluate(() => document.activeElement?.closest("dialog") !== null || document.activeElement === document.body)).toBe(true);

  // Escape closes it and focus is back on the thumbnail.
  await admin.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
  await expect(thumbnail).toBeFocused();

  // A click on the backdrop (outside the box) closes it; a click on the image does not.
  await thumbnail.click();
  await dialog.getByRole("img").click();
  await expect(dialog).toBeVisible();
  await admin.mouse.click(5, 5);
  await expect(dialog).toHaveCount(0);

  // Close closes it.
  await thumbnail.click();
  await close.click();
  await expect(dialog).toHaveCount(0);
  await expect(thumbnail).toBeFocused();
});
