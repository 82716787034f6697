/**
 * Signed-in storefront pages are served from kept HTML shared by every user of a role, filled in
 * per response (src/server/kept-pages/). Here two customers, an admin and a visitor
 * load the storefront's pages interleaved, many at once, 1,000 times against the production
 * server: every page must greet its own caller, with their own cart count, picture and role
 * links, and carry nobody else's name, id or picture; a cart change shows on that customer's
 * next page only. And the browser shows the same: the right header from the first paint, no
 * layout shift, no hydration error.
 */
import { expect, test } from "./test";
import { DEMO_ADMIN, DEMO_CUSTOMER, uniqueEmail } from "./fixtures";
import { fileOf, makePng } from "../helpers/images";

const PAGE_LOAD = { accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", "sec-fetch-dest": "document" };
const LOADS = 1_000;
const IN_FLIGHT = 8;

interface Caller {
  label: string;
  cookie: string;
  name: string | null;
  id: string | null;
  role: "user" | "admin" | null;
  avatar: string | null;
  cartCount: number;
}

/** The session cookie a sign-in (or sign-up) answer sets. */
function sessionCookie(response: Response): string {
  const cookie = response.headers.getSetCookie().find((header) => header.startsWith("shop-session="));
  if (!cookie) throw new Error(`no session cookie (${response.status})`);
  return cookie.split(";")[0]!;
}

async function call(baseURL: string, procedure: string, cookie: string, input: unknown): Promise<Response> {
  const response = await fetch(`${baseURL}/api/trpc/${procedure}`, {
    method: "POST",
    headers: { cookie, origin: baseURL, "content-type": "application/json" },
    body: JSON.stringify({ json: input }),
  });
  expect(response.status, `${procedure}: ${await response.clone().text()}`).toBe(200);
  return response;
}

async function session(baseURL: string, cookie: string): Promise<{ id: string; displayName: string; avatarPath: string | null }> {
  const response = await fetch(`${baseURL}/api/trpc/auth.session`, { headers: { cookie } });
  return ((await response.json()) as { result: { data: { json: { id: string; displayName: string; avatarPath: string | null } } } }).result.data.json;
}

/** What one page load's HTML says about whom it was served for. */
function servedFor(html: string) {
  return {
    name: /data-testid="greeting">Welcome, <span[^>]*>([^<]*)<\/span>/.exec(html)?.[1] ?? null,
    avatar: /<img src="([^"]*)"[^>]*data-testid="nav-avatar"/.exec(html)?.[1] ?? null,
    badge: /class="tabular ml-1\.5 (inline-flex|hidden) [^"]*" data-testid="cart-count"><span class="sr-only">\(<\/span>(\d+)</.exec(html),
    data: /<script id="shop-viewer" type="application\/json">(.*?)<\/script>/.exec(html)?.[1] ?? null,
    adminLinks: html.includes('href="/admin/dashboard"'),
    cartLink: html.includes('href="/cart"'),
    signIn: html.includes('href="/auth/signin"'),
  };
}

test.describe("signed-in pages from kept HTML", () => {
  test.setTimeout(180_000);

  test("two customers, an admin and a visitor interleaved over 1,000 page loads: 0 mix-ups", async ({ baseURL, request }) => {
    const base = baseURL!;
    const productsPage = await (await request.get("/products", { headers: PAGE_LOAD })).text();
    const productIds = [...productsPage.matchAll(/href="\/products\/([0-9a-f-]{36})"/g)].map((match) => match[1]!);
    expect(productIds.length).toBeGreaterThan(2);

    const thandi = sessionCookie(await call(base, "auth.signIn", "", { email: DEMO_CUSTOMER.email, password: DEMO_CUSTOMER.password }));
    const admin = sessionCookie(await call(base, "auth.signIn", "", { email: DEMO_ADMIN.email, password: DEMO_ADMIN.password }));
    const sipho = sessionCookie(
      await call(base, "auth.signUp", "", { fullName: "Sipho <Mix> O'Up", email: uniqueEmail("mixup"), password: "mix-up-2026", confirmPassword: "mix-up-2026", acceptTerms: true }),
    );
    // Different carts, and a picture for one of them.
    for (const id of [productIds[0], productIds[1], productIds[1]]) await call(base, "cart.add", thandi, { productId: id });
    const picture = new FormData();
    picture.set("image", fileOf(makePng(16, 16, 60), "me.png"));
    const uploaded = await fetch(`${base}/api/trpc/profile.uploadAvatar`, { method: "POST", headers: { cookie: sipho, origin: base }, body: picture });
    expect(uploaded.status).toBe(200);

    const callers: Caller[] = [];
    for (const [label, cookie, role, cartCount] of [
      ["Thandi", thandi, "user", 3],
      ["Sipho", sipho, "user", 0],
      ["admin", admin, "admin", 0],
    ] as const) {
      const who = await session(base, cookie);
      callers.push({ label, cookie, role, cartCount, id: who.id, name: who.displayName, avatar: who.avatarPath });
    }
    callers.push({ label: "visitor", cookie: "", role: null, name: null, id: null, avatar: null, cartCount: 0 });
    const [, siphoCaller] = callers;
    expect(siphoCaller!.avatar).toMatch(/^[0-9a-f-]{36}\//);
    // Escaped in HTML as React escapes it.
    const html = (text: string) => text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;").replaceAll("'", "&#x27;");

    const pages = ["/", "/products", `/products/${productIds[2]}`, "/about"];
    const mixUps: string[] = [];
    let next = 0;
    let served = 0;
    const load = async (index: number) => {
      const caller = callers[index % callers.length]!;
      const path = pages[Math.floor(index / callers.length) % pages.length]!;
      // Half-way, Thandi adds to her cart: from her next page on, the count is one more.
      if (caller.label === "Thandi" && index === LOADS / 2) {
        await call(base, "cart.add", thandi, { productId: productIds[0] });
        caller.cartCount++;
      }
      // A load already under way when the cart changed may show the count before or after it.
      const countAtStart = caller.cartCount;
      const response = await fetch(`${base}${path}`, { headers: { ...PAGE_LOAD, ...(caller.cookie ? { cookie: caller.cookie } : {}) } });
      const body = await response.text();
      const countsShown = new Set([countAtStart, caller.cartCount]);
      served++;
      const seen = servedFor(body);
      const problem = (what: string) => mixUps.push(`${index} ${caller.label} ${path}: ${what}`);
      if (response.status !== 200) problem(`status ${response.status}`);
      if (body.includes("__shop_viewer_")) problem("an unfilled slot");
      for (const other of callers.filter((each) => each !== caller && each.id)) {
        if (body.includes(other.id!)) problem(`${other.label}'s id`);
        if (other.avatar && body.includes(other.avatar)) problem(`${other.label}'s picture`);
        if (other.name && other.name !== caller.name && body.includes(html(other.name))) problem(`${other.label}'s name`);
      }
      if (!caller.role) {
        if (seen.name !== null || seen.data !== null || !seen.signIn || seen.adminLinks) problem(`a visitor's page? ${JSON.stringify(seen)}`);
        return;
      }
      if (seen.name !== html(caller.name!)) problem(`greeted ${seen.name}`);
      const data = JSON.parse(seen.data ?? "null") as { id?: string; cartCount?: number } | null;
      // Served from a template, the page carries its caller's values for hydration; rendered for them, it does not need to.
      if (data && (data.id !== caller.id || !(caller.role === "admin" ? data.cartCount === 0 : countsShown.has(data.cartCount ?? -1)))) problem(`data ${seen.data}`);
      if (caller.avatar ? !seen.avatar?.endsWith(caller.avatar) : seen.avatar !== "/avatar-placeholder.svg") problem(`picture ${seen.avatar}`);
      if (caller.role === "admin") {
        if (!seen.adminLinks || seen.cartLink || seen.badge) problem("not an admin's links");
      } else {
        const shown = Number(seen.badge?.[2]);
        const display = shown > 0 ? "inline-flex" : "hidden";
        if (seen.adminLinks || !seen.cartLink || seen.badge?.[1] !== display || !countsShown.has(shown)) {
          problem(`cart badge ${seen.badge?.[1]} ${seen.badge?.[2]}, expected ${[...countsShown].join(" or ")}`);
        }
      }
      if (seen.signIn) problem("offers to sign in");
    };
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        while (next < LOADS) await load(next++);
      }),
    );
    expect(served).toBe(LOADS);
    expect(mixUps).toEqual([]);
  });

  test("nobody outside the server can have a template rendered", async ({ request }) => {
    const response = await request.get("/products", { headers: { ...PAGE_LOAD, "x-shop-page-fill": "1", "x-shop-page-template": "not-the-secret user" } });
    const body = await response.text();
    expect(body).not.toContain("__shop_viewer_");
    expect(body).toContain('href="/auth/signin"');
  });

  test("the browser shows the customer's own header from the first paint: no shift, no hydration error", async ({ page, baseURL }) => {
    const problems: string[] = [];
    page.on("pageerror", (error) => problems.push(error.message));
    page.on("console", (message) => {
      if (message.type() === "error" && !message.text().startsWith("Failed to load resource")) problems.push(message.text());
    });
    await page.addInitScript(() => {
      const shifts: string[] = [];
      (window as unknown as { shifts: string[] }).shifts = shifts;
      // Shifts of the header, where the caller's values go (a shift elsewhere, e.g. 0.00004 of an
      // image settling on a loaded machine, is the page's CLS, which the bench measures). Each is
      // reported with what moved and how, so a failure names the element.
      const describe = (node: Node | null | undefined) =>
        node instanceof Element ? `${node.tagName.toLowerCase()}${node.id ? `#${node.id}` : ""}[${node.getAttribute("data-testid") ?? node.className.toString().slice(0, 40)}]` : String(node?.nodeName);
      new PerformanceObserver((list) => {
        type Source = { node?: Node | null; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly };
        for (const entry of list.getEntries() as (PerformanceEntry & { value: number; sources?: Source[] })[]) {
          const header = document.querySelector("header");
          if (!header || (entry.sources ?? []).some((source) => source.node && header.contains(source.node))) {
            const moved = (entry.sources ?? []).map((s) => `${describe(s.node)} ${JSON.stringify(s.previousRect)} -> ${JSON.stringify(s.currentRect)}`);
            shifts.push(`${entry.value.toFixed(7)} at ${Math.round(entry.startTime)} ms: ${moved.join("; ")}`);
          }
        }
      }).observe({ type: "layout-shift", buffered: true });
    });
    const cookie = sessionCookie(await call(baseURL!, "auth.signIn", "", { email: DEMO_CUSTOMER.email, password: DEMO_CUSTOMER.password }));
    // A cart of its own, so the header's count shows whatever the other tests left (no test relies on another's state).
    const productsPage = await (await page.request.get("/products", { headers: PAGE_LOAD })).text();
    const productId = /href="\/products\/([0-9a-f-]{36})"/.exec(productsPage)![1]!;
    await call(baseURL!, "cart.add", cookie, { productId });
    const [name, ...value] = cookie.split("=");
    await page.context().addCookies([{ name: name!, value: value.join("="), url: baseURL! }]);
    for (const path of ["/", "/products", "/about"]) {
      // Twice: the first fills the customers' template, the second is served from it.
      for (let load = 0; load < 2; load++) {
        const response = await page.goto(path);
        // In the HTML as it arrives, before any script ran.
        expect(await response!.text()).toContain(`Welcome, <span class="font-semibold text-ink">${DEMO_CUSTOMER.name}</span>`);
        await expect(page.getByTestId("greeting")).toHaveText(`Welcome, ${DEMO_CUSTOMER.name}`);
        await expect(page.getByTestId("cart-count")).toBeVisible();
        await page.waitForLoadState("networkidle");
        expect(await page.evaluate(() => (window as unknown as { shifts: string[] }).shifts), `layout shifts of the header on ${path}`).toEqual([]);
      }
    }
    // Adding to the cart updates the badge in place.
    const before = Number((await page.getByTestId("cart-count").textContent())?.replace(/\D/g, ""));
    await page.goto("/products");
    await page.getByRole("link", { name: /.+/ }).filter({ has: page.locator("h3") }).first().click();
    await page.getByRole("button", { name: "Add to Cart" }).first().click();
    await expect(page.getByTestId("cart-count")).toContainText(String(before + 1));
    expect(problems).toEqual([]);
  });
});
