import { expect, test } from "./test";
import { messages } from "../../src/lib/messages";
import { PDF_REFUSAL_MESSAGES } from "../../src/server/storage/upload-messages";
import { makeProofPdf } from "../helpers/pdfs";
import { DEMO_ADMIN, newCustomerAtCheckout, signIn } from "./fixtures";

/** A bank's PDF proof, as a customer uploads it and an admin checks it. */
test("a customer pays with their bank's PDF; a PDF with a script is refused; the admin sees the first page and can open it", async ({ page, browser }) => {
  const reference = await newCustomerAtCheckout(page, "Pdf Payer", "pdf");

  // A PDF that runs a script on opening: refused with a message the customer can act on.
  const withScript = makeProofPdf({ catalog: "/OpenAction 7 0 R", extra: () => ["<< /S /JavaScript /JS (app.alert\\(1\\)) >>"] });
  await page.getByLabel(/^Proof of payment/).setInputFiles({ name: "proof.pdf", mimeType: "application/pdf", buffer: withScript });
  await page.getByRole("button", { name: "Complete Payment" }).click();
  await expect(page.getByText(PDF_REFUSAL_MESSAGES.active_content)).toBeVisible();

  // The bank's plain PDF goes through, with the reference the page showed.
  await page.getByLabel(/^Proof of payment/).setInputFiles({ name: "FNB proof of payment.pdf", mimeType: "application/pdf", buffer: makeProofPdf() });
  await page.getByRole("button", { name: "Complete Payment" }).click();
  await expect(page.getByText(messages.checkout.success(reference))).toBeVisible();

  const admin = await (await browser.newContext()).newPage();
  await signIn(admin, DEMO_ADMIN);
  await admin.goto(`/admin/orders?q=${reference}`);
  const card = admin.getByRole("listitem").filter({ hasText: reference }).first();
  const thumbnail = card.getByRole("img", { name: `Proof of payment for ${reference} (PDF, first page)` });
  await expect(thumbnail).toBeVisible();
  // The preview is a real image the browser decoded.
  expect(await thumbnail.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(100);
  await thumbnail.click();
  const modal = admin.getByRole("dialog", { name: `Proof of payment for ${reference}` });
  await expect(modal.getByRole("img")).toBeVisible();
  const open = modal.getByRole("link", { name: /Open/ });
  const href = (await open.getAttribute("href"))!;
  const pdf = await admin.request.get(href);
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()["content-type"]).toBe("application/pdf");
  expect(pdf.headers()["x-content-type-options"]).toBe("nosniff");
  expect(pdf.headers()["content-security-policy"]).toContain("script-src 'none'");
  // Nobody else gets it.
  expect((await (await browser.newContext()).request.get(new URL(href, admin.url()).href)).status()).toBe(404);
});
