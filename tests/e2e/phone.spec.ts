/**
 * The shop on a customer's phone (issue 28): a 390 px touch screen at 3× (an iPhone 12-sized
 * Android), Chromium with its back/forward cache on (Playwright turns it off by default).
 *
 * - /products: two products per row with name, price and Add to Cart; category tabs in one row
 *   that scrolls sideways; card pictures at the size the phone shows, AVIF or WebP, ≤ 40 kB.
 * - A kept page loads its scripts as Next.js does, and the menu answers a tap; nothing is blocked.
 * - Icons and the manifest: no page logs an error, each icon is there.
 * - The custom cursor exists only under a fine pointer.
 * - Back from a product restores the visitor's list from the back/forward cache (Chrome says so);
 *   after a customer signs out, no page of theirs comes back, from that cache or any other.
 * - The admin's navigation and pages at 390 px: every tab on screen and thumb-sized, no page
 *   scrolls sideways, axe finds nothing serious.
 */
import AxeBuilder from "@axe-core/playwright";
import { devices, type Page } from "@playwright/test";
import { expect, test } from "./test";
import sharp from "sharp";
import { messages } from "../../src/lib/messages";
import { chromiumLaunch } from "./chromium";
import { DEMO_ADMIN, DEMO_CUSTOMER, signIn } from "./fixtures";

const WIDTH = 390;
const HEIGHT = 844;

test.use({
  viewport: { width: WIDTH, height: HEIGHT },
  deviceScaleFactor: 3,
  isMobile: true,
  hasTouch: true,
  userAgent: devices["Pixel 7"].userAgent,
  launchOptions: { ...chromiumLaunch, ignoreDefaultArgs: ["--disable-back-forward-cache"] },
});

/** Whether the page scrolls sideways (it must not on a phone). */
function pageWidth(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth);
}

/** Records, for every page this tab shows, whether it came from the back/forward cache. */
async function watchRestores(page: Page): Promise<{ notRestored: string[][] }> {
  await page.addInitScript(() => {
    const state = window as unknown as { restored?: boolean };
    addEventListener("pageshow", (event) => (state.restored = event.persisted));
    // Unset while the page is away, so a page restored later says so only once it is shown again.
    addEventListener("pagehide", () => delete state.restored);
  });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Page.enable");
  const watched = { notRestored: [] as string[][] };
  cdp.on("Page.backForwardCacheNotUsed", (event) => watched.notRestored.push(event.notRestoredExplanations.map((each) => each.reason)));
  return watched;
}

/** Signs in on the phone (the header's links are behind its menu button there). */
async function signInOnPhone(page: Page, account: { email: string; password: string; name: string }, next?: string) {
  await page.goto(next ? `/auth/signin?next=${encodeURIComponent(next)}` : "/auth/signin");
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password", { exact: true }).fill(account.password);
  await page.getByRole("button", { name: "Sign In", exact: true }).tap();
  await expect(page.getByTestId("greeting")).toHaveText(`Welcome, ${account.name}`);
}

/** A laptop's browser beside the phone (a context made in a test takes the file's phone options unless told). */
const LAPTOP = { ...devices["Desktop Chrome"], viewport: { width: 1280, height: 800 }, isMobile: false, hasTouch: false, deviceScaleFactor: 1 };

/** Whether the page on show came from the back/forward cache (waits for it to be shown). */
async function restored(page: Page): Promise<boolean> {
  await expect.poll(() => page.evaluate(() => typeof (window as unknown as { restored?: boolean }).restored)).toBe("boolean");
  return page.evaluate(() => (window as unknown as { restored: boolean }).restored);
}

/** Where this tab is in its history (0: the first page it showed). */
const historyIndex = (page: Page) => page.evaluate(() => (window as unknown as { navigation: { currentEntry: { index: number } } }).navigation.currentEntry.index);

test.describe("the shop grid on a phone", () => {
  test("two products per row with name, price and Add to Cart; category tabs in one row that scrolls sideways", async ({ page }) => {
    await page.goto("/products");
    const cards = page.getByRole("list", { name: "Product list" }).getByRole("listitem");
    await expect(cards).toHaveCount(20);
    const boxes = await cards.evaluateAll((items) => items.map((item) => item.getBoundingClientRect().toJSON() as DOMRect));
    // Row by row: two cards side by side, each about half the screen.
    for (let i = 0; i + 1 < boxes.length; i += 2) {
      const [left, right] = [boxes[i]!, boxes[i + 1]!];
      expect(Math.abs(left.top - right.top), `row ${i / 2}`).toBeLessThan(1);
      expect(right.left).toBeGreaterThanOrEqual(left.right);
      for (const box of [left, right]) {
        expect(box.width).toBeGreaterThan(150);
        expect(box.width).toBeLessThan(WIDTH / 2);
      }
    }
    expect(boxes[2]!.top).toBeGreaterThan(boxes[0]!.bottom - 1);
    expect(await pageWidth(page)).toBeLessThanOrEqual(WIDTH);
    // 20 products took 9,225 px in one column.
    expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeLessThan(4_600);

    // Each card: name, price and its Add to Cart inside the card, reachable.
    for (const card of (await cards.all()).slice(0, 4)) {
      const box = (await card.boundingBox())!;
      await expect(card.getByRole("heading", { level: 3 })).toBeVisible();
      await expect(card.locator(".tabular")).toHaveText(/^R\d/);
      const button = card.getByRole("button", { name: "Add to Cart" });
      await expect(button).toBeEnabled();
      const buttonBox = (await button.boundingBox())!;
      expect(buttonBox.x).toBeGreaterThanOrEqual(box.x);
      expect(buttonBox.x + buttonBox.width).toBeLessThanOrEqual(box.x + box.width + 0.5);
      expect(buttonBox.height).toBeGreaterThanOrEqual(44);
    }
    await cards.first().getByRole("button", { name: "Add to Cart" }).tap();
    await expect(cards.first().getByText(messages.cart.signInToAdd)).toBeVisible();

    // The category tabs: one row, wider than the screen, scrolled sideways by a swipe, not wrapped.
    const strip = page.getByRole("navigation", { name: "Categories" });
    const tabs = strip.getByRole("link");
    expect(await tabs.count()).toBeGreaterThanOrEqual(6);
    const tops = await tabs.evaluateAll((links) => links.map((link) => Math.round(link.getBoundingClientRect().top)));
    expect(new Set(tops).size).toBe(1);
    expect(await strip.evaluate((element) => element.scrollWidth > element.clientWidth)).toBe(true);
    const last = tabs.last();
    expect((await last.boundingBox())!.x).toBeGreaterThan(WIDTH);
    const stripBox = (await strip.boundingBox())!;
    await page.mouse.move(stripBox.x + 300, stripBox.y + stripBox.height / 2);
    await page.mouse.wheel(600, 0);
    await expect.poll(() => strip.evaluate((element) => element.scrollLeft)).toBeGreaterThan(0);
    await last.scrollIntoViewIfNeeded();
    const lastName = (await last.textContent())!;
    await last.tap();
    await expect(page).toHaveURL(new RegExp(`category=${encodeURIComponent(lastName).replace(/%20/g, "(%20|\\+)")}`));
    expect(await pageWidth(page)).toBeLessThanOrEqual(WIDTH);
  });

  test("card pictures come at the size the phone shows them, as AVIF or WebP, at most 40 kB", async ({ page, browser }) => {
    // An uploaded product photograph, 1,600 × 1,200 from a phone camera: a lit backdrop, the
    // product's shapes, and the sensor's grain all over (which costs every encoder bytes).
    const scene = Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="1200"><defs><radialGradient id="light" cx="40%" cy="35%" r="80%"><stop offset="0" stop-color="#f4e7d3"/><stop offset="1" stop-color="#8a6f55"/></radialGradient><linearGradient id="pie" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#e3a957"/><stop offset="1" stop-color="#9a5b22"/></linearGradient></defs>` +
        `<rect width="1600" height="1200" fill="url(#light)"/><ellipse cx="800" cy="860" rx="620" ry="170" fill="#5b4636" opacity="0.45"/>` +
        `<ellipse cx="640" cy="700" rx="330" ry="200" fill="url(#pie)"/><ellipse cx="1030" cy="660" rx="300" ry="180" fill="url(#pie)"/><path d="M420 640c120-90 320-90 440 0" stroke="#f7d9a0" stroke-width="26" fill="none"/><path d="M820 600c110-80 300-80 410 0" stroke="#f7d9a0" stroke-width="24" fill="none"/></svg>`,
    );
    const grain = await sharp({ create: { width: 1600, height: 1200, channels: 3, background: "#000", noise: { type: "gaussian", mean: 128, sigma: 12 } } }).png().toBuffer();
    const photo = await sharp(scene)
      .composite([{ input: grain, blend: "overlay" }])
      .jpeg({ quality: 90 })
      .toBuffer();
    expect(photo.length).toBeGreaterThan(100_000);
    const admin = await (await browser.newContext(LAPTOP)).newPage();
    await signIn(admin, DEMO_ADMIN);
    await admin.goto("/admin/dashboard");
    await admin.getByRole("button", { name: "Add Product +" }).click();
    const form = admin.getByRole("form", { name: "Add product" });
    const name = `Phone Photo ${Date.now()}`;
    await form.getByLabel("Name").fill(name);
    await form.getByLabel("Price (Rands)").fill("120");
    await form.getByLabel("Description").fill("A product with a real photograph.");
    await form.getByLabel("Category", { exact: true }).selectOption({ index: 1 });
    await form.getByLabel("Image").setInputFiles({ name: "photo.jpg", mimeType: "image/jpeg", buffer: photo });
    await form.getByRole("button", { name: "Add Product" }).click();
    await expect(admin.getByText(messages.admin.productAdded(name))).toBeVisible();

    const images = new Map<string, { type: string; bytes: number }>();
    page.on("response", async (response) => {
      if (!response.url().includes("/_next/image") && !response.url().includes("/catalogue/")) return;
      const body = await response.body().catch(() => Buffer.alloc(0));
      images.set(response.url(), { type: response.headers()["content-type"] ?? "", bytes: body.length });
    });
    await page.goto("/products");
    const cards = page.getByRole("list", { name: "Product list" }).getByRole("listitem");
    const photoCard = cards.filter({ hasText: name });
    await expect(photoCard).toHaveCount(1);
    const img = photoCard.locator("img");
    await img.scrollIntoViewIfNeeded();
    await expect.poll(() => img.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth > 0)).toBe(true);
    const shown = await img.evaluate((element: HTMLImageElement) => ({ src: element.currentSrc, srcset: element.srcset, width: element.getBoundingClientRect().width }));
    // A srcset to choose from, and the choice fits a half-screen card at 3×: 640 px, not 1,080 or more.
    expect(shown.srcset.split(",").length).toBeGreaterThan(3);
    expect(shown.width).toBeLessThan(WIDTH / 2);
    const chosen = Number(new URL(shown.src).searchParams.get("w"));
    expect(chosen).toBeGreaterThanOrEqual(shown.width * 3);
    expect(chosen).toBeLessThanOrEqual(640);
    await expect.poll(() => images.get(shown.src)).toBeTruthy();
    const served = images.get(shown.src)!;
    expect(served.type).toMatch(/^image\/(avif|webp)$/);
    expect(served.bytes).toBeGreaterThan(1_000);
    expect(served.bytes).toBeLessThanOrEqual(40_000);
    // And the catalogue's own art on the first cards (drawn as SVG, any size): small too.
    for (const [url, each] of images) if (url.includes("/catalogue/")) expect(each.bytes, url).toBeLessThanOrEqual(40_000);

    // The specs share one shop: the photo's product goes again, so the home page's featured cards stay the catalogue's own.
    admin.once("dialog", (dialog) => void dialog.accept());
    await admin.getByRole("button", { name: `Delete ${name}` }).click();
    await expect(admin.getByText(messages.admin.productDeleted(name))).toBeVisible();
    await admin.context().close();
  });
});

test.describe("the first screen", () => {
  test("a kept page fetches its scripts as Next.js does, nothing is blocked, and the menu answers a tap", async ({ page }) => {
    const blocked: string[] = [];
    page.on("console", (message) => {
      if (/Content Security Policy|Refused to/.test(message.text())) blocked.push(message.text());
    });
    for (const path of ["/", "/products", "/about"]) {
      await page.goto(path);
      const timing = await page.evaluate(() => ({
        paint: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? null,
        scripts: performance.getEntriesByType("resource").filter((entry) => /\/_next\/static\/chunks\/.+\.js$/.test(entry.name)).length,
      }));
      expect(timing.paint, path).not.toBeNull();
      expect(timing.scripts, path).toBeGreaterThan(3);
      // React took the page: the menu opens to a tap.
      await page.getByRole("button", { name: "Open menu" }).tap();
      await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Sign In" })).toBeVisible();
    }
    expect(blocked).toEqual([]);
  });

  test("a kept page's head has only the rules it uses, yet every element looks as it does with the whole stylesheet, which arrives and serves the next page reached in place", async ({ page, browser }) => {
    const card = await (await page.request.get("/products", { headers: { accept: "text/html" } })).text();
    const product = card.match(/href="(\/products\/[0-9a-f-]{36})"/)![1]!;
    // Every computed property of every element, as one fingerprint each (with tag and classes, for a failure's message).
    const looks = (on: Page) =>
      on.evaluate(() =>
        [...document.body.querySelectorAll("*")]
          .filter((element) => !element.closest("script, noscript, template"))
          .map((element) => {
            const style = getComputedStyle(element);
            let text = "";
            // Custom properties left out: the whole stylesheet defines ones only other pages use, and they show only where a property uses them.
            for (let i = 0; i < style.length; i++) if (!style[i]!.startsWith("--")) text += `${style[i]}:${style.getPropertyValue(style[i]!)};`;
            let hash = 2166136261;
            for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 16777619);
            return `${element.tagName.toLowerCase()}.${element.getAttribute("class") ?? ""} ${(hash >>> 0).toString(16)}`;
          }),
      );
    const wholeApplied = (on: Page) => on.locator("[data-whole-stylesheet]").evaluate((link) => (link as HTMLLinkElement).media);

    for (const path of ["/", "/products", product, "/about", "/contact"]) {
      const html = await (await page.request.get(path, { headers: { accept: "text/html" } })).text();
      const head = html.match(/<style data-precedence="next" data-href="[^"]+">([\s\S]*?)<\/style>/)![1]!;
      const stylesheet = await (await page.request.get(html.match(/<link rel="stylesheet" href="([^"]+)" media="print" data-whole-stylesheet/)![1]!)).text();
      expect(head.length, path).toBeLessThan(stylesheet.length * 0.7);

      // The same page with no stylesheet file at all (only the head's rules), then as it comes.
      const bare = await browser.newContext({ viewport: { width: WIDTH, height: HEIGHT }, isMobile: true, hasTouch: true, reducedMotion: "reduce" });
      const headOnly = await bare.newPage();
      await headOnly.route((url) => url.pathname.endsWith(".css"), (route) => route.abort());
      await headOnly.goto(path);
      await headOnly.waitForLoadState("networkidle");
      const withHeadOnly = await looks(headOnly);
      await bare.close();

      const full = await browser.newContext({ viewport: { width: WIDTH, height: HEIGHT }, isMobile: true, hasTouch: true, reducedMotion: "reduce" });
      const whole = await full.newPage();
      await whole.goto(path);
      await expect.poll(() => wholeApplied(whole), path).toBe("all");
      await whole.waitForLoadState("networkidle");
      const withWhole = await looks(whole);
      await full.close();

      expect(withHeadOnly.length, path).toBeGreaterThan(50);
      expect(withHeadOnly.filter((each, i) => each !== withWhole[i]), path).toEqual([]);
      expect(withHeadOnly.length, path).toBe(withWhole.length);
    }

    // `/about` has no two-column grid; the products reached from it in place are laid out in one.
    await page.goto("/about");
    expect(await page.locator("style[data-href]").evaluate((style) => style.textContent)).not.toContain(".grid-cols-2{");
    await expect.poll(() => wholeApplied(page)).toBe("all");
    await page.getByRole("contentinfo").getByRole("link", { name: "Products" }).tap();
    const list = page.getByRole("list", { name: "Product list" });
    await expect(list).toBeVisible();
    expect(await list.evaluate((element) => getComputedStyle(element).gridTemplateColumns.split(" ").length)).toBe(2);
  });

  test("a page view asks the server for none of the pages it links to; a finger on a product's card fetches that one, and the tap opens it in place", async ({ page }) => {
    // Next.js asks for another page's server components with `_rsc` (a prefetch or a navigation).
    const asked: string[] = [];
    const documents: string[] = [];
    page.on("request", (request) => {
      const url = new URL(request.url());
      if (url.searchParams.has("_rsc")) asked.push(url.pathname);
      if (request.isNavigationRequest() && request.frame() === page.mainFrame()) documents.push(url.pathname);
    });
    for (const path of ["/", "/products", "/about"]) {
      await page.goto(path);
      await page.waitForLoadState("networkidle");
      expect(asked, path).toEqual([]);
    }
    await page.goto("/products");
    await page.waitForLoadState("networkidle");
    documents.length = 0;
    const card = page.getByRole("list", { name: "Product list" }).getByRole("link").first();
    const product = (await card.getAttribute("href"))!;
    await card.tap();
    await expect(page).toHaveURL(product);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    // Fetched for the tap (the finger's prefetch and the navigation), as server components: no new document.
    expect(asked.length).toBeGreaterThan(0);
    expect(new Set(asked)).toEqual(new Set([product]));
    expect(documents).toEqual([]);
  });

  test("the first row's pictures are asked for at high priority from the HTML itself, the rest only when near the screen", async ({ page }) => {
    const attributes = (images: ReturnType<Page["locator"]>) =>
      images.evaluateAll((elements) => elements.map((element) => ({ priority: element.getAttribute("fetchpriority"), loading: element.getAttribute("loading") })));
    const html = await (await page.request.get("/products", { headers: { accept: "text/html" } })).text();
    const cards = [...html.matchAll(/<img [^>]*>/g)].map(([tag]) => tag);
    expect(cards.slice(0, 4).every((tag) => /fetchPriority="high"/i.test(tag) && !/loading=/.test(tag)), cards.slice(0, 4).join("\n")).toBe(true);
    expect(cards.slice(4).every((tag) => /loading="lazy"/.test(tag) && !/fetchPriority/i.test(tag))).toBe(true);

    await page.goto("/products");
    const listed = await attributes(page.getByRole("list", { name: "Product list" }).locator("img"));
    expect(listed.slice(0, 4)).toEqual(Array.from({ length: 4 }, () => ({ priority: "high", loading: null })));
    // A product's first picture too, reached as a customer does (a client navigation).
    const card = page.getByRole("list", { name: "Product list" }).getByRole("link").first();
    const product = (await card.getAttribute("href"))!;
    await card.tap();
    await expect(page).toHaveURL(product);
    const picture = page.getByRole("article").locator("img").first();
    await expect(picture).toHaveAttribute("fetchpriority", "high");
    expect(await picture.getAttribute("loading")).toBeNull();
  });
});

test.describe("icons, manifest and cursor", () => {
  test("no storefront page logs an error; the favicon, touch icon and manifest are there", async ({ page, request }) => {
    const problems: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") problems.push(`${page.url()}: ${message.text()}`);
    });
    page.on("response", (response) => {
      if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`);
    });
    await page.goto("/products");
    const product = await page.getByRole("list", { name: "Product list" }).getByRole("link").first().getAttribute("href");
    for (const path of ["/", "/products", product!, "/about"]) {
      await page.goto(path);
      await page.waitForLoadState("networkidle");
    }
    // The favicon the browser asks for on its own, whatever the page says.
    const favicon = await request.get("/favicon.ico");
    expect(favicon.status()).toBe(200);
    expect(favicon.headers()["content-type"]).toMatch(/image\/(x-icon|vnd.microsoft.icon)/);
    const links = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLLinkElement>('link[rel="icon"], link[rel="apple-touch-icon"], link[rel="manifest"]')].map((link) => [link.rel, link.getAttribute("href")!]),
    );
    expect(links.map(([rel]) => rel).sort()).toEqual(["apple-touch-icon", "icon", "icon", "manifest"]);
    for (const [rel, href] of links) {
      const response = await request.get(href!);
      expect(response.status(), href).toBe(200);
      if (rel === "manifest") {
        const manifest = (await response.json()) as { name: string; theme_color: string; icons: { src: string }[] };
        expect(manifest.name).toBe("Our World Services");
        expect(manifest.theme_color).toBe("#0f5e57");
        for (const icon of manifest.icons) expect((await request.get(icon.src)).status(), icon.src).toBe(200);
      } else {
        expect(response.headers()["content-type"], href).toMatch(/^image\//);
      }
    }
    expect(await page.locator('meta[name="theme-color"]').getAttribute("content")).toBe("#0f5e57");
    expect(problems).toEqual([]);
  });

  test("the custom cursor exists only where the pointer is fine, never on a touch screen", async ({ page, browser }) => {
    await page.goto("/");
    expect(await page.evaluate(() => matchMedia("(pointer: fine)").matches)).toBe(false);
    await page.getByRole("heading", { level: 1 }).tap();
    await page.mouse.move(100, 200);
    await expect(page.getByTestId("custom-cursor")).toBeHidden();
    await expect(page.getByTestId("custom-cursor")).toHaveCSS("display", "none");

    // A laptop's trackpad: the same page shows it as the pointer moves.
    const desktop = await (await browser.newContext(LAPTOP)).newPage();
    await desktop.goto("/");
    expect(await desktop.evaluate(() => matchMedia("(pointer: fine)").matches)).toBe(true);
    await desktop.mouse.move(300, 300);
    await desktop.mouse.move(320, 310);
    await expect(desktop.getByTestId("custom-cursor")).toHaveCSS("opacity", "1");
    await desktop.context().close();
  });
});

test.describe("back and forward", () => {
  test("a visitor going back from a product gets the list from the back/forward cache", async ({ page }) => {
    const watched = await watchRestores(page);
    const response = await page.goto("/products");
    expect(response!.headers()["cache-control"]).toBe("private, no-cache");
    // Scroll the tab strip (it snaps to a tab): the very state Back must bring back.
    const scrolled = await page.getByRole("navigation", { name: "Categories" }).evaluate(async (strip) => {
      strip.scrollLeft = 150;
      await new Promise((resolve) => setTimeout(resolve, 300));
      return strip.scrollLeft;
    });
    expect(scrolled).toBeGreaterThan(0);
    const product = await page.getByRole("list", { name: "Product list" }).getByRole("link").nth(3).getAttribute("href");
    // A page load of the product (as from a link shared or opened anew), then Back.
    await page.goto(product!);
    expect(await restored(page)).toBe(false);
    // A page restored from the cache fires no `load`.
    await page.goBack({ waitUntil: "commit" });
    await expect(page).toHaveURL(/\/products$/);
    expect(watched.notRestored).toEqual([]);
    expect(await restored(page)).toBe(true);
    // The very page as it was left, scrolled tab strip and all.
    expect(await page.getByRole("navigation", { name: "Categories" }).evaluate((strip) => strip.scrollLeft)).toBe(scrolled);
    // And Forward again.
    await page.goForward({ waitUntil: "commit" });
    await expect(page).toHaveURL(product!);
    expect(await restored(page)).toBe(true);
  });

  test("after a customer signs out, Back brings back nothing of theirs, from any cache", async ({ page }) => {
    const watched = await watchRestores(page);
    // A visitor's page first (kept for Back), then sign in from its header.
    await page.goto("/products");
    await page.getByRole("button", { name: "Open menu" }).tap();
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Sign In" }).tap();
    await page.getByLabel("Email").fill(DEMO_CUSTOMER.email);
    await page.getByLabel("Password", { exact: true }).fill(DEMO_CUSTOMER.password);
    await page.getByRole("button", { name: "Sign In", exact: true }).tap();
    await expect(page.getByTestId("greeting")).toHaveText(`Welcome, ${DEMO_CUSTOMER.name}`);
    // Signed-in pages, each loaded: never stored.
    const list = await page.goto("/products");
    expect(list!.headers()["cache-control"]).toMatch(/no-store/);
    const product = await page.getByRole("list", { name: "Product list" }).getByRole("link").first().getAttribute("href");
    await page.goto(product!);
    await page.goto("/cart");
    await expect(page.getByTestId("greeting")).toHaveText(`Welcome, ${DEMO_CUSTOMER.name}`);

    await page.getByRole("button", { name: "Open menu" }).tap();
    const signedOut = page.waitForResponse((response) => new URL(response.url()).pathname === "/auth/signout");
    await page.getByRole("button", { name: "Sign Out" }).tap();
    expect((await (await signedOut).allHeaders())["clear-site-data"]).toBe('"cache"');
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByTestId("greeting")).toHaveCount(0);

    // Back through every page of the visit: none restored, none shows the customer.
    const seen: string[] = [];
    expect(await historyIndex(page)).toBeGreaterThanOrEqual(4);
    while ((await historyIndex(page)) > 0) {
      const from = await historyIndex(page);
      await page.goBack({ waitUntil: "commit" });
      await expect.poll(() => historyIndex(page)).toBe(from - 1);
      seen.push(page.url());
      expect(await restored(page), page.url()).toBe(false);
      const html = await page.content();
      expect(html, page.url()).not.toContain(DEMO_CUSTOMER.name);
      expect(html, page.url()).not.toContain("Welcome,");
      await expect(page.getByTestId("cart-count")).toHaveCount(0);
    }
    expect(seen.some((url) => url.endsWith(product!))).toBe(true);
    // Chrome said why each was not restored (no-store, or the cache the sign-out cleared).
    expect(watched.notRestored.length).toBe(seen.length);
  });
});

test.describe("the owner's pages on a phone", () => {
  test("every admin tab is on screen and thumb-sized; each admin page fits the screen and passes axe", async ({ page }) => {
    await signInOnPhone(page, DEMO_ADMIN);
    await expect(page).toHaveURL(/\/admin\/dashboard$/);
    const nav = page.getByRole("navigation", { name: "Admin" });
    const tabs = nav.getByRole("link");
    const count = await tabs.count();
    expect(count).toBeGreaterThanOrEqual(5);
    const hrefs: string[] = [];
    for (let i = 0; i < count; i++) {
      const tab = tabs.nth(i);
      const box = (await tab.boundingBox())!;
      const label = (await tab.textContent())!;
      // Inside the screen without scrolling anything, big enough for a thumb, and what a tap there hits.
      expect(box.x, label).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width, label).toBeLessThanOrEqual(WIDTH);
      expect(box.height, label).toBeGreaterThanOrEqual(44);
      expect(
        await tab.evaluate((element) => {
          const r = element.getBoundingClientRect();
          return element.contains(document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2));
        }),
        label,
      ).toBe(true);
      hrefs.push((await tab.getAttribute("href"))!);
    }
    const sound = nav.getByRole("switch");
    const soundBox = (await sound.boundingBox())!;
    expect(soundBox.x + soundBox.width).toBeLessThanOrEqual(WIDTH);
    expect(soundBox.height).toBeGreaterThanOrEqual(44);
    for (const labelled of ["Outbox", "Shop settings"]) await expect(nav.getByRole("link", { name: labelled })).toBeInViewport({ ratio: 1 });

    for (const href of hrefs) {
      // Reached by a tap on its tab, as a thumb would.
      await page.getByRole("navigation", { name: "Admin" }).locator(`a[href="${href}"]`).tap();
      await expect(page).toHaveURL(new RegExp(`${href}$`));
      await page.waitForLoadState("networkidle");
      expect(await pageWidth(page), href).toBeLessThanOrEqual(WIDTH);
      await page.addStyleTag({ content: "*, *::before, *::after { transition: none !important; animation: none !important; }" });
      const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]).analyze();
      const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
      expect(serious.map((v) => `${href}: ${v.id} ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
    }
  });
});
