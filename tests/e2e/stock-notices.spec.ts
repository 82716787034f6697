import type { Page } from "@playwright/test";
import { expect, test } from "./test";
import { messages } from "../../src/lib/messages";
import { DEMO_ADMIN, signIn, uniqueEmail } from "./fixtures";

/*
 * Stock notices in the browser (issue 37, item 3): a customer asks to be told when a sold-out
 * product is back, the owner restocks it from the variants grid, and the mail arrives once; the
 * owner is told live when the stock came down to its mark. Mails are read from the e2e server's
 * SMTP catcher (scripts/e2e-server.ts serves them at E2E_PORT+52). The product is one no other
 * spec uses.
 */

const TONER = "Printer Toner Supply";
const MAIL_READER = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 3100) + 52}`;

interface Mail {
  to: string[];
  subject: string;
  text: string;
}

async function mailsTo(address: string): Promise<Mail[]> {
  const response = await fetch(MAIL_READER);
  return ((await response.json()) as Mail[]).filter((mail) => mail.to.includes(address));
}

/** The admin's "Options and stock" grid for the toner: sets its stock and low-stock mark and saves. */
async function saveTonerStock(page: Page, stock: string, lowStockAt: string) {
  const item = page.getByRole("list", { name: "Products" }).getByRole("listitem").filter({ hasText: TONER });
  const grid = item.getByRole("form", { name: "Variants" });
  if (!(await grid.isVisible())) await item.getByRole("button", { name: `Options and stock of ${TONER}` }).click();
  await grid.getByLabel("Stock of The product").fill(stock);
  await grid.getByLabel("Low stock mark of The product").fill(lowStockAt);
  const saved = page.waitForResponse((response) => response.url().includes("adminProducts.saveVariants"));
  // The grid takes the saved rows once they are read back: wait for that, so the next change is
  // typed over the stock it saved (typed before, it would be saved over the one read before).
  const reread = page.waitForResponse((response) => response.url().includes("adminProducts.variants") && response.request().method() === "GET");
  await grid.getByRole("button", { name: "Save variants" }).click();
  expect((await saved).ok()).toBe(true);
  expect((await reread).ok()).toBe(true);
  await expect(page.getByText(messages.admin.variants.variantsSaved(TONER)).last()).toBeVisible();
  await expect(grid.getByLabel("Stock of The product")).toHaveValue(stock);
  // And the grid has taken the saved stock as the one it read (the next save is made over it).
  await expect(grid.getByLabel("Stock of The product")).toHaveAttribute("data-stock-read", stock);
}

test.describe("stock notices", () => {
  test("a customer asks on a sold-out product, the owner restocks it, and the back-in-stock mail arrives once; the owner is told live of the low stock", async ({ page, browser }) => {
    // Two people, a mail round trip: longer than one page's journey.
    test.setTimeout(120_000);
    const subscribed = page.waitForResponse((response) => response.url().includes("/api/trpc/live.changes"));
    await signIn(page, DEMO_ADMIN);
    await expect(page).toHaveURL(/\/admin\/dashboard$/);
    await subscribed;

    // Sold out, at its low-stock mark: the owner's own save crosses it, and the notice says so.
    await saveTonerStock(page, "0", "1");
    await expect(page.getByTestId("admin-notice").filter({ hasText: messages.adminNotices.lowStock(TONER, 0) })).toBeVisible();

    // A visitor is asked to sign in first.
    const shopper = await (await browser.newContext()).newPage();
    await shopper.goto(`/products?q=${encodeURIComponent("Toner")}`);
    await shopper.getByRole("list", { name: "Product list" }).getByRole("link", { name: TONER }).first().click();
    await expect(shopper.getByRole("heading", { level: 1, name: TONER })).toBeVisible();
    await expect(shopper.getByText(messages.catalogue.soldOut)).toBeVisible();
    await shopper.getByRole("button", { name: messages.stockNotices.ask }).click();
    await expect(shopper.getByText(messages.stockNotices.signInToAsk)).toBeVisible();

    // Signed up, the customer asks.
    const email = uniqueEmail("toner");
    await shopper.goto("/auth/signup");
    await shopper.getByLabel("Full name").fill("Lindiwe Zulu");
    await shopper.getByLabel("Email").fill(email);
    await shopper.getByLabel("Password", { exact: true }).fill("toner-pass-2026");
    await shopper.getByLabel("Confirm password", { exact: true }).fill("toner-pass-2026");
    await shopper.getByLabel("I agree to the Terms & Privacy Policy").check();
    await shopper.getByRole("button", { name: "Create account" }).click();
    await expect(shopper.getByTestId("greeting")).toBeVisible();
    await shopper.goto(`/products?q=${encodeURIComponent("Toner")}`);
    await shopper.getByRole("list", { name: "Product list" }).getByRole("link", { name: TONER }).first().click();
    await shopper.getByRole("button", { name: messages.stockNotices.ask }).click();
    await expect(shopper.getByText(messages.stockNotices.asked)).toBeVisible();
    await expect(shopper.getByRole("button", { name: messages.stockNotices.withdraw })).toBeVisible();

    // The owner restocks it: one mail, and the request is gone, so a second restock sends none.
    await saveTonerStock(page, "12", "1");
    await expect.poll(async () => (await mailsTo(email)).length, { timeout: 20_000 }).toBe(1);
    const [mail] = await mailsTo(email);
    expect(mail!.subject).toContain(`${TONER} is back in stock`);
    expect(mail!.text).toContain("Lindiwe Zulu");
    await saveTonerStock(page, "0", "1");
    await saveTonerStock(page, "5", "1");
    await page.waitForTimeout(3_000);
    expect(await mailsTo(email)).toHaveLength(1);

    await shopper.reload();
    await expect(shopper.getByRole("button", { name: messages.stockNotices.ask })).toHaveCount(0);
  });
});
