import type { Page } from "@playwright/test";
import { expect, reactStarted, test } from "./test";
import { formatShortDay, shopDay } from "../../src/lib/days";
import { messages } from "../../src/lib/messages";
import { formatRand, formatRand2 } from "../../src/lib/money";
import { CHANGES_BY_THE_CLOCK } from "../../src/lib/page-viewer";
import { makePng } from "../helpers/images";
import { DEMO_ADMIN, signIn, uniqueEmail } from "./fixtures";

const SERVICE = "Carpet & Upholstery Deep Clean";
/** The mails the e2e server's SMTP server received (scripts/e2e-server.ts serves them at E2E_PORT+52). */
const MAIL_READER = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 3100) + 52}`;

interface Mail {
  to: string[];
  subject: string;
  text: string;
  attachments: { filename: string; content: string }[];
}

/** The first mail to `address` whose subject matches (waits for it to arrive). */
async function mailTo(address: string, subject: RegExp): Promise<Mail> {
  let found: Mail | undefined;
  await expect
    .poll(async () => {
      const mails = (await (await fetch(MAIL_READER)).json()) as Mail[];
      found = mails.find((mail) => mail.to.includes(address) && subject.test(mail.subject));
      return found !== undefined;
    }, { timeout: 30_000 })
    .toBe(true);
  return found!;
}

/** The day picker's Thursday, unless that is today (10:00 may be gone): then the next day offered. */
function thursdayOrNext(labels: string[]): number {
  const thursday = labels.findIndex((label) => label.startsWith("Thu"));
  return thursday > 0 || (thursday === 0 && labels[0] !== formatShortDay(shopDay())) ? thursday : 1;
}

/** The YYYY-MM-DD of a day picker label ("Thu 10 Dec") within the next week. */
function dayOf(label: string): string {
  return Array.from({ length: 8 }, (_, offset) => shopDay(offset)).find((day) => formatShortDay(day) === label)!;
}

async function bookingPanel(page: Page) {
  await page.goto("/admin/dashboard");
  const item = page.getByRole("list", { name: "Products" }).getByRole("listitem").filter({ hasText: SERVICE });
  await item.getByRole("button", { name: `Booking of ${SERVICE}` }).click();
  return item.getByRole("form", { name: messages.bookings.admin.panel });
}

test.describe("bookable services", () => {
  test("the owner makes the deep clean bookable with a 30 % deposit; a customer books Thursday 10:00, sees the countdown, pays the deposit, gets the mail with the calendar file and moves it to 14:00; the admin sees it on the calendar and the run sheet and marks the deposit, then the balance, paid", async ({ page, browser }) => {
    test.setTimeout(180_000);
    await signIn(page, DEMO_ADMIN);
    const panel = await bookingPanel(page);
    await panel.getByLabel(messages.bookings.admin.bookable).check();
    await panel.getByLabel("Duration (minutes)").fill("120");
    await panel.getByLabel("Minimum notice (hours)").fill("0");
    await panel.getByRole("combobox", { name: "Deposit" }).selectOption("percent");
    await panel.getByLabel("Deposit (%)").fill("0");
    await panel.getByRole("button", { name: "Save booking settings" }).click();
    await expect(panel.getByRole("alert")).toHaveText(messages.bookings.admin.depositPercent);
    await panel.getByLabel("Deposit (%)").fill("30");
    await expect(panel.getByLabel("Sunday hours")).toHaveValue("shop");
    await panel.getByRole("button", { name: "Save booking settings" }).click();
    await expect(page.getByText(messages.bookings.admin.saved(SERVICE))).toBeVisible();

    const customer = await (await browser.newContext()).newPage();
    await customer.goto("/auth/signup");
    const email = uniqueEmail("bookings");
    await customer.getByLabel("Full name").fill("Lindiwe Mokoena");
    await customer.getByLabel("Email").fill(email);
    await customer.getByLabel("Password", { exact: true }).fill("bookings-2026");
    await customer.getByLabel("Confirm password", { exact: true }).fill("bookings-2026");
    await customer.getByLabel("I agree to the Terms & Privacy Policy").check();
    await customer.getByRole("button", { name: "Create account" }).click();
    await expect(customer.getByTestId("greeting")).toBeVisible();

    // The card sends the customer to the service's page to choose a time.
    await customer.goto(`/products?q=${encodeURIComponent("Upholstery")}`);
    await customer.getByRole("list", { name: "Product list" }).getByRole("listitem").filter({ hasText: SERVICE }).getByRole("link", { name: messages.bookings.chooseTime }).click();
    await expect(customer.getByRole("heading", { level: 1, name: SERVICE })).toBeVisible();
    await expect(customer.getByText(messages.bookings.timesNote)).toBeVisible();
    const article = customer.getByRole("article");
    // The free times carry the mark that keeps a kept copy of the page from being served past its time.
    await expect(article.locator(`[${CHANGES_BY_THE_CLOCK}]`)).toHaveCount(1);
    // Nothing chosen yet: it says so.
    await article.getByRole("button", { name: "Add to Cart" }).click();
    await expect(customer.getByText(messages.bookings.pickFirst)).toBeVisible();
    const dayButtons = article.getByRole("group", { name: "Day" }).getByRole("button");
    const day = dayButtons.nth(thursdayOrNext(await dayButtons.allTextContents()));
    const dayLabel = (await day.textContent())!;
    await day.click();
    await article.getByRole("group", { name: "Time" }).getByRole("button", { name: "10:00", exact: true }).click();
    await article.getByRole("button", { name: "Add to Cart" }).click();
    await expect(customer.getByText(/is held for you/)).toBeVisible();

    // The cart shows the time and the hold counting down, with no quantity to change.
    await customer.goto("/cart");
    const line = customer.getByRole("list", { name: "Cart items" }).getByRole("listitem").filter({ hasText: SERVICE });
    await expect(line.getByTestId("booking-slot")).toHaveText(new RegExp(`^Booked for ${dayLabel} \\d{4}, 10:00$`));
    await expect(line.getByTestId("hold-countdown")).toHaveText(/^Held for 1[45]:\d\d$/);
    const before = await line.getByTestId("hold-countdown").textContent();
    await expect(line.getByTestId("hold-countdown")).not.toHaveText(before!);
    await expect(line.getByRole("group", { name: `Quantity of ${SERVICE}` })).toHaveCount(0);

    // Checkout asks only the 30 % deposit now; the rest is the balance, paid later.
    await customer.goto("/checkout");
    const reference = (await customer.getByTestId("payment-reference").textContent())!;
    await expect(customer.getByTestId("checkout-total")).toHaveText(formatRand(899.5));
    await expect(customer.getByTestId("checkout-due-now")).toHaveText(formatRand(269.85));
    await expect(customer.getByTestId("checkout-deposit")).toContainText(formatRand(629.65));
    await customer.getByLabel(/^Proof of payment/).setInputFiles({ name: "proof.png", mimeType: "image/png", buffer: makePng(40, 30) });
    await customer.getByRole("button", { name: "Complete Payment" }).click();
    await expect(customer.getByText(messages.checkout.success(reference))).toBeVisible();

    // The order mail carries the booking as a calendar file.
    const received = await mailTo(email, new RegExp(`^Order ${reference} received`));
    expect(received.text).toContain(`${reference}-B`);
    const ics = received.attachments.find((file) => file.filename === `booking-${reference}.ics`);
    expect(ics?.content).toMatch(/BEGIN:VEVENT/);
    const uid = /UID:(\S+)/.exec(ics!.content)![1]!;
    expect(uid).toMatch(new RegExp(`^${reference}-`));

    // The order page and Order Management show the booked time, the deposit and the balance.
    await customer.goto(`/profile/orders/${reference}`);
    await expect(customer.getByText(new RegExp(`Booked for ${dayLabel} \\d{4}, 10:00`))).toBeVisible();
    await expect(customer.getByTestId("bank-details")).toContainText(formatRand2(269.85));
    await expect(customer.getByTestId("order-balance").getByTestId("balance-status")).toHaveText(messages.bookings.balanceDue(formatRand2(629.65), `${reference}-B`));
    await page.goto(`/admin/orders?q=${reference}`);
    await expect(page.getByText(new RegExp(`Booked for ${dayLabel} \\d{4}, 10:00`))).toBeVisible();

    // The customer moves it to 14:00 the same day from the order page, and is mailed the new time under the same calendar uid.
    await customer.getByRole("button", { name: "Change time" }).click();
    await customer.getByLabel("New time").selectOption({ label: `${dayLabel}, 14:00` });
    await customer.getByRole("button", { name: "Move booking" }).click();
    await expect(customer.getByText(/is now booked for/)).toBeVisible();
    await expect(customer.getByText(new RegExp(`Booked for ${dayLabel} \\d{4}, 14:00`))).toBeVisible();
    const moved = await mailTo(email, /^Booking moved:/);
    expect(moved.attachments[0]?.content).toContain(`UID:${uid}`);

    // The admin sees it on the bookings calendar and on that day's run sheet.
    const date = dayOf(dayLabel);
    await page.goto(`/admin/bookings?day=${date}`);
    const grid = page.getByRole("table", { name: messages.bookings.calendar.gridLabel });
    const block = grid.getByRole("row", { name: /^14:00/ }).getByTestId("calendar-booking").filter({ hasText: reference });
    await expect(block).toContainText("14:00");
    await expect(block).toContainText("Lindiwe Mokoena");
    // The week's grid has it in its day's column.
    await page.getByRole("link", { name: "Week" }).click();
    await expect(grid.getByRole("columnheader")).toHaveCount(8);
    await expect(grid.getByRole("row", { name: /^14:00/ }).getByTestId("calendar-booking").filter({ hasText: reference })).toBeVisible();
    await page.goto(`/admin/orders/run-sheet?day=${date}`);
    await expect(page.getByTestId("run-sheet-bookings").getByRole("row").filter({ hasText: reference })).toContainText("Lindiwe Mokoena");

    // The deposit is marked paid (its invoice), and later the balance (its own).
    await page.goto(`/admin/orders?q=${reference}`);
    const card = page.getByTestId("order-card").filter({ hasText: reference });
    await card.getByLabel("Status").selectOption("pending_delivery");
    await expect(page.getByText(messages.adminOrders.updated(reference, "Pending Delivery"))).toBeVisible();
    await card.getByRole("button", { name: messages.bookings.markBalancePaid }).click();
    await expect(card.getByText(messages.bookings.balanceMarked(reference))).toBeVisible();
    await expect(card.getByTestId("balance-status")).toHaveText(messages.bookings.balancePaid(formatRand(629.65)));
    await expect(card.getByTestId("invoice-links").getByRole("link")).toHaveCount(2);
    await customer.goto(`/profile/orders/${reference}`);
    await expect(customer.getByTestId("balance-status")).toHaveText(messages.bookings.balancePaid(formatRand2(629.65)));

    // The deep clean goes back to being sold as before, as the other tests expect it.
    const again = await bookingPanel(page);
    await expect(again.getByLabel("Deposit (%)")).toHaveValue("30");
    await again.getByLabel(messages.bookings.admin.bookable).uncheck();
    await again.getByRole("button", { name: "Save booking settings" }).click();
    await expect(page.getByText(messages.bookings.admin.stopped(SERVICE))).toBeVisible();
  });

  test("a customer cancels the booking of an order that also holds a product: the line says cancelled, the balance is gone and a credit note for the deposit appears", async ({ page, browser }) => {
    test.setTimeout(180_000);
    await signIn(page, DEMO_ADMIN);
    const panel = await bookingPanel(page);
    await panel.getByLabel(messages.bookings.admin.bookable).check();
    await panel.getByLabel("Duration (minutes)").fill("120");
    await panel.getByLabel("Minimum notice (hours)").fill("0");
    await panel.getByRole("combobox", { name: "Deposit" }).selectOption("percent");
    await panel.getByLabel("Deposit (%)").fill("30");
    await panel.getByRole("button", { name: "Save booking settings" }).click();
    await expect(page.getByText(messages.bookings.admin.saved(SERVICE))).toBeVisible();

    const customer = await (await browser.newContext()).newPage();
    await customer.goto("/auth/signup");
    await customer.getByLabel("Full name").fill("Thabo Nkosi");
    await customer.getByLabel("Email").fill(uniqueEmail("cancel-one"));
    await customer.getByLabel("Password", { exact: true }).fill("bookings-2026");
    await customer.getByLabel("Confirm password", { exact: true }).fill("bookings-2026");
    await customer.getByLabel("I agree to the Terms & Privacy Policy").check();
    await customer.getByRole("button", { name: "Create account" }).click();
    await expect(customer.getByTestId("greeting")).toBeVisible();

    // Thursday (or the next day offered) at 11:00, clear of the first test's booking, and a product.
    await customer.goto(`/products?q=${encodeURIComponent("Upholstery")}`);
    await customer.getByRole("list", { name: "Product list" }).getByRole("listitem").filter({ hasText: SERVICE }).getByRole("link", { name: messages.bookings.chooseTime }).click();
    await expect(customer.getByRole("heading", { level: 1, name: SERVICE })).toBeVisible();
    await expect(customer.getByText(messages.bookings.timesNote)).toBeVisible();
    const article = customer.getByRole("article");
    await article.getByRole("button", { name: "Add to Cart" }).click();
    await expect(customer.getByText(messages.bookings.pickFirst)).toBeVisible();
    const dayButtons = article.getByRole("group", { name: "Day" }).getByRole("button");
    await dayButtons.nth(thursdayOrNext(await dayButtons.allTextContents())).click();
    await article.getByRole("group", { name: "Time" }).getByRole("button", { name: "11:00", exact: true }).click();
    await article.getByRole("button", { name: "Add to Cart" }).click();
    await expect(customer.getByText(/is held for you/)).toBeVisible();
    await customer.goto(`/products?q=${encodeURIComponent("Branded Cap")}`);
    await customer.getByRole("list", { name: "Product list" }).getByRole("link").first().click();
    await expect(customer).toHaveURL(/\/products\/[0-9a-f-]{36}$/);
    await customer.getByRole("button", { name: "Add to Cart" }).first().click();
    await expect(customer.getByText(/added to cart\./).first()).toBeVisible();

    await customer.goto("/checkout");
    const reference = (await customer.getByTestId("payment-reference").textContent())!;
    await customer.getByLabel(/^Proof of payment/).setInputFiles({ name: "proof.png", mimeType: "image/png", buffer: makePng(40, 30) });
    await customer.getByRole("button", { name: "Complete Payment" }).click();
    await expect(customer.getByText(messages.checkout.success(reference))).toBeVisible();

    // The deposit (and the cap) received: one invoice.
    await page.goto(`/admin/orders?q=${reference}`);
    const card = page.getByTestId("order-card").filter({ hasText: reference });
    await card.getByLabel("Status").selectOption("pending_delivery");
    await expect(page.getByText(messages.adminOrders.updated(reference, "Pending Delivery"))).toBeVisible();

    await customer.goto(`/profile/orders/${reference}`);
    await reactStarted(customer);
    await expect(customer.getByTestId("balance-status")).toBeVisible();
    await expect(customer.getByTestId("invoice-links").getByRole("link")).toHaveCount(1);
    const line = customer.getByRole("table", { name: "Order lines" }).getByRole("row").filter({ hasText: SERVICE });
    await line.getByRole("button", { name: messages.bookings.cancelBooking }).click();
    await line.getByRole("button", { name: messages.bookings.cancelYes }).click();
    // The order goes on for the cap: the line says so (the passing "… is cancelled" message goes
    // with the line's Change time and Cancel booking as the order is read again), nothing more is
    // due, and the credit note is there without a reload.
    await expect(line).toContainText(messages.bookings.lineCancelled(0));
    await expect(line.getByRole("button", { name: messages.bookings.cancelBooking })).toHaveCount(0);
    await expect(customer.getByTestId("balance-status")).toHaveCount(0);
    await expect(customer.getByTestId("invoice-links").getByRole("link")).toHaveCount(2);
    await expect(customer.getByTestId("invoice-links").getByRole("link").nth(1)).toHaveText(/credit note/i);

    const again = await bookingPanel(page);
    await again.getByLabel(messages.bookings.admin.bookable).uncheck();
    await again.getByRole("button", { name: "Save booking settings" }).click();
    await expect(page.getByText(messages.bookings.admin.stopped(SERVICE))).toBeVisible();
  });
});
