import fs from "node:fs";
import { expect, test } from "./test";
import { messages } from "../../src/lib/messages";
import { parseCsv } from "../helpers/csv";
import { makePng } from "../helpers/images";
import { DEMO_ADMIN, DEMO_CUSTOMER, signIn } from "./fixtures";

const m = messages.admin;

test.describe("admin dashboard", () => {
  test("an admin adds a product with an image, it shows in the shop, then edits it, sets it unavailable and deletes it; a visitor sees each change on the next page load", async ({ page, browser }) => {
    // A visitor's pages are kept as rendered HTML (src/server/kept-pages/): load the
    // category twice so it is kept, then every change must still show on the next load.
    const visitor = await (await browser.newContext()).newPage();
    const food = "/products?category=Food%20Products";
    const visitorCards = visitor.getByRole("list", { name: "Product list" }).getByRole("listitem");
    await visitor.goto(food);
    await visitor.goto(food);
    await expect(visitorCards.first()).toBeVisible();
    await expect(visitor.getByText("Vetkoek Dozen")).toHaveCount(0);

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
    await visitor.goto(food);
    await expect(visitorCards.filter({ hasText: "Vetkoek Dozen" }).getByText("R96.50")).toBeVisible();
    const productPath = await visitorCards.filter({ hasText: "Vetkoek Dozen" }).getByRole("link").first().getAttribute("href");
    await visitor.goto(productPath!);
    await visitor.goto(productPath!);
    await expect(visitor.getByText("R96.50")).toBeVisible();

    await page.goto("/admin/dashboard");
    await page.getByRole("button", { name: "Edit Vetkoek Dozen" }).click();
    const edit = page.getByRole("form", { name: "Edit Vetkoek Dozen" });
    await edit.getByLabel("Name").fill("Vetkoek Dozen (mince)");
    await edit.getByLabel("Price (Rands)").fill("110");
    await edit.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByText(m.productUpdated("Vetkoek Dozen (mince)"))).toBeVisible();
    await page.goto("/products?q=Vetkoek");
    await expect(page.getByRole("list", { name: "Product list" }).getByText("R110")).toBeVisible();
    await visitor.goto(productPath!);
    await expect(visitor.getByRole("heading", { name: "Vetkoek Dozen (mince)" })).toBeVisible();
    await expect(visitor.getByText("R110")).toBeVisible();

    await page.goto("/admin/dashboard");
    await page.getByRole("button", { name: "Set Unavailable Vetkoek Dozen (mince)" }).click();
    await expect(page.getByText(m.availabilityChanged("Vetkoek Dozen (mince)", false))).toBeVisible();
    await page.goto("/products?q=Vetkoek");
    await expect(page.getByText(messages.catalogue.noSearchMatches)).toBeVisible();
    await visitor.goto(food);
    await expect(visitorCards.first()).toBeVisible();
    await expect(visitor.getByText("Vetkoek Dozen")).toHaveCount(0);

    await page.goto("/admin/dashboard");
    page.once("dialog", (dialog) => void dialog.accept());
    await page.getByRole("button", { name: "Delete Vetkoek Dozen (mince)" }).click();
    await expect(page.getByText(m.productDeleted("Vetkoek Dozen (mince)"))).toBeVisible();
  });
});

test.describe("admin orders", () => {
  test("a customer's new order appears live on the admin's open orders page; status, filters and proof modal work", async ({ browser }) => {
    const adminPage = await (await browser.newContext()).newPage();
    await signIn(adminPage, DEMO_ADMIN);
    await adminPage.goto("/admin/orders");
    await expect(adminPage.getByRole("heading", { name: messages.adminOrders.title })).toBeVisible();
    const cards = adminPage.getByTestId("order-card");
    await expect(cards.first()).toBeVisible();

    // A customer, in another browser, places an order.
    const shopper = await (await browser.newContext()).newPage();
    await signIn(shopper, DEMO_CUSTOMER);
    await shopper.goto("/products?q=Branded%20Cap");
    await shopper.getByRole("list", { name: "Product list" }).getByRole("link").first().click();
    // The list's cards have their own Add to Cart: wait for the product's page.
    await expect(shopper).toHaveURL(/\/products\/[0-9a-f-]{36}$/);
    await shopper.getByRole("button", { name: "Add to Cart" }).first().click();
    await expect(shopper.getByText(/added to cart\.|quantity updated in cart\./).first()).toBeVisible();
    await shopper.goto("/checkout");
    const reference = (await shopper.getByTestId("payment-reference").textContent())!;
    await shopper.getByLabel(/^Proof of payment/).setInputFiles({ name: "proof.png", mimeType: "image/png", buffer: makePng(120, 90, 90) });
    await shopper.getByRole("button", { name: "Complete Payment" }).click();
    await expect(shopper.getByText(messages.checkout.success(reference))).toBeVisible();

    // Without a reload, the admin sees it, first (the page holds 50 orders, so the count stays).
    const card = cards.filter({ hasText: reference });
    await expect(card).toBeVisible({ timeout: 5_000 });
    await expect(cards.first()).toContainText(reference);
    await expect(card.getByText(/Branded Cap x \d+ \(R95\.50\)/)).toBeVisible();

    // The proof enlarges in a modal.
    await card.getByRole("button").filter({ has: adminPage.getByRole("img") }).click();
    const dialog = adminPage.getByRole("dialog", { name: `Proof of payment for ${reference}` });
    await expect(dialog).toBeVisible();
    await expect.poll(() => dialog.getByRole("img").evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(120);
    await dialog.getByRole("button", { name: "Close" }).click();

    // Status change saves at once, with its message; the customer's profile shows it.
    await card.getByLabel("Status").selectOption("pending_delivery");
    await expect(adminPage.getByText(messages.adminOrders.updated(reference, "Pending Delivery"))).toBeVisible();

    // Filters.
    await adminPage.getByRole("link", { name: "Pending Delivery" }).click();
    await expect(adminPage).toHaveURL(/status=pending_delivery/);
    await expect(cards.filter({ hasText: reference })).toBeVisible();
    await adminPage.getByRole("link", { name: "Cancelled" }).click();
    await expect(cards.filter({ hasText: reference })).toHaveCount(0);
    for (const label of ["Pending Payment", "Complete", "All"]) {
      // A tab's name is its label and, once counted, its count ("Complete 60").
      await adminPage.getByRole("link", { name: new RegExp(`^${label}( \\d+)?$`) }).click();
      await expect(adminPage.getByText(messages.adminOrders.loading)).toHaveCount(0);
    }

    await shopper.goto("/profile");
    await expect(shopper.getByRole("list", { name: "Orders" }).getByTestId("order-status").first()).toHaveText(messages.orderStatus.pending_delivery);
  });

  test("every order is reachable: counts on the tabs, Load more, an Export CSV of them all; an order unpaid past the limit was cancelled by the shop", async ({ page }) => {
    const m = messages.adminOrders;
    await signIn(page, DEMO_ADMIN);
    await page.goto("/admin/orders");
    const cards = page.getByTestId("order-card");
    await expect(cards).toHaveCount(50);
    const count = async (tab: string) => Number(await page.getByTestId(`count-${tab}`).textContent());
    const all = await count("all");
    expect(all).toBeGreaterThan(60);
    const perTab = await Promise.all(["pending_payment", "pending_delivery", "complete", "cancelled"].map(count));
    expect(perTab.reduce((a, b) => a + b, 0)).toBe(all);
    await expect(page.getByText(m.showing(50, all))).toBeVisible();

    await page.getByRole("button", { name: m.loadMore }).click();
    await expect(cards).toHaveCount(Math.min(all, 100));
    await expect(page.getByText(m.showing(Math.min(all, 100), all))).toBeVisible();

    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: m.exportCsv }).click()]);
    expect(download.suggestedFilename()).toMatch(/^orders-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = fs.readFileSync(await download.path(), "utf8");
    expect(csv.charCodeAt(0)).toBe(0xfeff);
    const records = parseCsv(csv.slice(1));
    expect(records[0]).toEqual(["Reference", "Date", "Customer", "E-mail", "Items", "Total", "Status"]);
    expect(records).toHaveLength(all + 1);

    // A customer's name finds their order; the shop cancelled it when the server started.
    await page.getByLabel(m.searchLabel).fill("unpaid fixture");
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(/q=unpaid\+fixture/);
    await expect(cards).toHaveCount(1);
    await expect(cards.first().getByText("Cancelled", { exact: true }).first()).toBeVisible();
    await cards.first().getByText("Status history").click();
    await expect(cards.first().getByText(new RegExp(`Cancelled ${m.byShop(m.unpaidReason(7))}`))).toBeVisible();
  });

  test("an empty filter says so", async ({ page }) => {
    await signIn(page, DEMO_ADMIN);
    await page.goto("/admin/orders?q=nobody-at-all@example.test");
    await expect(page.getByText(messages.adminOrders.noneWithStatus("All"))).toBeVisible();
  });
});

test.describe("contact messages", () => {
  test("a visitor's message reaches the admin's messages page, newest first, and can be marked read", async ({ page, browser }) => {
    const visitor = await (await browser.newContext()).newPage();
    await visitor.goto("/contact");
    const form = visitor.getByRole("form", { name: "Send us a message" });
    await form.getByLabel("Name").fill("Busi");
    await form.getByLabel("Email").fill("busi@example.test");
    await form.getByLabel("Message").fill("Can you embroider 30 caps by Friday?");
    await form.getByRole("button", { name: "Send Message" }).click();
    await expect(visitor.getByText(messages.contact.sent("Busi"))).toBeVisible();

    await signIn(page, DEMO_ADMIN);
    await page.getByRole("link", { name: "Contact messages" }).click();
    const first = page.getByRole("list", { name: "Messages" }).getByRole("listitem").first();
    await expect(first).toContainText("Can you embroider 30 caps by Friday?");
    await first.getByRole("button", { name: /Mark as read/ }).click();
    await expect(first.getByRole("button", { name: /Mark as unread/ })).toBeVisible();
  });

  test("admin pages send visitors to sign in", async ({ page }) => {
    for (const path of ["/admin/dashboard", "/admin/orders", "/admin/messages"]) {
      await page.goto(path);
      await expect(page).toHaveURL(/\/auth\/signin\?next=/);
    }
  });
});
