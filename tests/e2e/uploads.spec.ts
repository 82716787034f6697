/**
 * Files are checked for type and size in the browser before a byte is sent (the server checks
 * again): a proof of payment over 5 MB is refused at once, not after uploading for seconds. "At
 * once" is shown by what is sent (nothing), never by a timing, which a loaded machine stretches.
 */
import type { Page } from "@playwright/test";
import { expect, test } from "./test";
import { messages } from "../../src/lib/messages";
import { DEMO_ADMIN, newCustomerAtCheckout, signIn } from "./fixtures";

// Just over the limit: the check is the same for 30 MB, which only takes Playwright longer to hand over.
const OVER_LIMIT = Buffer.alloc(5 * 1024 * 1024 + 1, 1);

/** Counts the calls that carry a file (multipart posts to the API) made from `page`. */
function countUploads(page: Page): () => number {
  let uploads = 0;
  page.on("request", (request) => {
    if (request.method() === "POST" && request.url().includes("/api/trpc/") && (request.headers()["content-type"] ?? "").startsWith("multipart/")) uploads++;
  });
  return () => uploads;
}

test.describe("files are checked in the browser before they are sent", () => {
  test("a proof of payment over 5 MB and a text file are refused at checkout at once, and nothing is sent", async ({ page }) => {
    await newCustomerAtCheckout(page, "Upload Tester", "uploads");
    const uploads = countUploads(page);
    const proof = page.getByLabel(/^Proof of payment/);
    await proof.setInputFiles({ name: "slip.png", mimeType: "image/png", buffer: OVER_LIMIT });
    await expect(page.getByRole("alert").filter({ hasText: messages.upload.too_large })).toBeVisible();
    expect(await proof.evaluate((input: HTMLInputElement) => input.files?.length ?? 0)).toBe(0);
    await proof.setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("not a slip") });
    await expect(page.getByRole("alert").filter({ hasText: messages.upload.not_a_proof })).toBeVisible();
    expect(uploads()).toBe(0);
  });

  test("a profile picture over 5 MB is refused at once and not uploaded", async ({ page }) => {
    await newCustomerAtCheckout(page, "Avatar Tester", "avatar-upload");
    await page.goto("/profile");
    const uploads = countUploads(page);
    await page.getByLabel("Upload New Picture").setInputFiles({ name: "me.png", mimeType: "image/png", buffer: OVER_LIMIT });
    await expect(page.getByRole("alert").filter({ hasText: messages.upload.too_large })).toBeVisible();
    await page.waitForTimeout(500);
    expect(uploads()).toBe(0);
  });

  test("a product image that is not an image is refused at once", async ({ page }) => {
    await signIn(page, DEMO_ADMIN, "/admin/dashboard");
    const uploads = countUploads(page);
    const form = page.getByRole("form", { name: "Add product" });
    // The button opens the form once React has the page: a click before that (a busy machine) is tried again.
    await expect(async () => {
      await page.getByRole("button", { name: "Add Product +" }).click();
      await expect(form).toBeVisible({ timeout: 1_000 });
    }).toPass({ timeout: 20_000 });
    await form.getByLabel("Image").setInputFiles({ name: "brochure.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4") });
    await expect(form.getByRole("alert").filter({ hasText: messages.upload.not_an_image })).toBeVisible();
    expect(uploads()).toBe(0);
  });
});
