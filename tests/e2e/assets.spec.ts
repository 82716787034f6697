/**
 * Every file a storefront page names exists: no script, style, font, icon or picture of the
 * shop's own answers 4xx or 5xx, on any storefront page, for a visitor, a customer and an admin.
 * (Turbopack once listed chunk names in /products' and the product page's preload hints that it
 * never wrote: two 404s, three times each, on every signed-in load of those pages.)
 */
import type { Page, Response } from "@playwright/test";
import { expect, test } from "./test";
import { DEMO_ADMIN, DEMO_CUSTOMER, signIn } from "./fixtures";

const ASSET_TYPES = new Set(["script", "stylesheet", "image", "font", "manifest", "media"]);
const ASSET_PATHS = [/^\/_next\//, /^\/icons\//, /^\/files\//, /^\/favicon\.ico$/, /^\/icon\.svg$/, /^\/apple-icon\.png$/, /^\/manifest\.webmanifest$/];

function isOwnAsset(response: Response, origin: string): boolean {
  const url = new URL(response.url());
  if (url.origin !== origin) return false;
  return ASSET_TYPES.has(response.request().resourceType()) || ASSET_PATHS.some((path) => path.test(url.pathname));
}

async function storefrontPaths(page: Page): Promise<string[]> {
  await page.goto("/products");
  const href = await page.getByRole("list", { name: "Product list" }).getByRole("link").first().getAttribute("href");
  expect(href).toMatch(/^\/products\/[0-9a-f-]{36}$/);
  return ["/", "/products", href!, "/about", "/contact"];
}

/** Loads each page and its scripts (which a kept page adds after its first paint), and returns every failed asset. */
async function failedAssets(page: Page, paths: string[]): Promise<string[]> {
  const origin = new URL(page.url()).origin;
  const failed: string[] = [];
  const onResponse = (response: Response) => {
    if (response.status() >= 400 && isOwnAsset(response, origin)) failed.push(`${response.status()} ${new URL(response.url()).pathname} (on ${new URL(page.url()).pathname})`);
  };
  page.on("response", onResponse);
  for (const path of paths) {
    await page.goto(path);
    // The loader's chunks, lazily loaded components and lazy pictures have had time to be asked for.
    await page.waitForTimeout(1_500);
    await page.mouse.wheel(0, 4_000);
    await page.waitForTimeout(500);
  }
  page.off("response", onResponse);
  return failed;
}

test.describe("every file a storefront page names exists", () => {
  test("for a visitor", async ({ page }) => {
    const paths = await storefrontPaths(page);
    expect(await failedAssets(page, paths)).toEqual([]);
  });

  test("for a customer", async ({ page }) => {
    await signIn(page, DEMO_CUSTOMER);
    const paths = await storefrontPaths(page);
    expect(await failedAssets(page, paths)).toEqual([]);
  });

  test("for an admin", async ({ page }) => {
    await signIn(page, DEMO_ADMIN);
    const paths = await storefrontPaths(page);
    expect(await failedAssets(page, paths)).toEqual([]);
  });
});
