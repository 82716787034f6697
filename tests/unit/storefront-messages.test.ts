/**
 * The storefront's pages ship their own texts, not every text the shop has: no module a client
 * component on `/`, `/products`, a product page or `/about` imports (however deeply) is
 * src/lib/messages.ts, whose 39 kB a throttled phone spent 140 ms evaluating on `/products`
 * before its first tap (BENCHMARKS.md, issue 35). Followed from the pages' source by their
 * imports, across the "use client" boundary, the ones loaded on use (a signed-in customer's Add to
 * Cart) included; type-only imports ship nothing and are skipped.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { MAX_CART_LINE_QUANTITY } from "@/lib/constants";
import { messages } from "@/lib/messages";
import { bookingMessages } from "@/lib/booking-messages";
import { storefrontMessages } from "@/lib/storefront-messages";

const SRC = path.resolve(import.meta.dirname, "../../src");
const PAGES = ["app/layout.tsx", "app/page.tsx", "app/products/page.tsx", "app/products/[id]/layout.tsx", "app/products/[id]/page.tsx", "app/about/page.tsx"];
const IMPORT = /^\s*(?:import|export)\s+(type\s+)?(?:[^"';]*?\s+from\s+)?["']([^"']+)["']|\bimport\(\s*()["']([^"']+)["']\s*\)/gm;

function resolve(from: string, specifier: string): string | null {
  const base = specifier.startsWith("@/") ? path.join(SRC, specifier.slice(2)) : specifier.startsWith(".") ? path.resolve(path.dirname(from), specifier) : null;
  if (!base) return null; // a package
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, "index.ts"), path.join(base, "index.tsx")]) {
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
  }
  throw new Error(`${path.relative(SRC, from)} imports ${specifier}, which is not there`);
}

/** Every module shipped to the browser from these entry points: a "use client" module and what it imports. */
function clientModules(entries: string[]): Map<string, string> {
  const shipped = new Map<string, string>(); // module → the client module it was reached through
  const seen = new Set<string>();
  const visit = (file: string, client: string | null) => {
    const key = `${file}|${client !== null}`;
    if (seen.has(key)) return;
    seen.add(key);
    const source = fs.readFileSync(file, "utf8");
    const through = client ?? (/^\s*["']use client["']/.test(source) ? file : null);
    if (through) shipped.set(file, through);
    for (const [, typeOnly, specifier, , loadedLater] of source.matchAll(IMPORT)) {
      if (typeOnly) continue;
      const target = resolve(file, (specifier ?? loadedLater)!);
      if (target) visit(target, through);
    }
  };
  for (const entry of entries) visit(path.join(SRC, entry), null);
  return shipped;
}

describe("the storefront's texts in the browser", () => {
  it("no client module of the storefront's pages reaches src/lib/messages.ts", () => {
    const shipped = clientModules(PAGES);
    // The walk does find the client side (a card's Add to Cart, the product page's options).
    expect([...shipped.keys()].map((file) => path.relative(SRC, file))).toEqual(expect.arrayContaining(["components/cart/add-to-cart-button.tsx", "components/product/variant-picker.tsx", "lib/storefront-messages.ts"]));
    const through = shipped.get(path.join(SRC, "lib/messages.ts"));
    expect(through && path.relative(SRC, through), "a client component on a storefront page imports @/lib/messages: import its group from storefront-messages.ts (or booking-messages.ts) instead").toBeUndefined();
  });

  it("the walk would see it if one did", () => {
    // The cart page's client components still use `messages` (they are not on a storefront page).
    expect(clientModules(["app/cart/page.tsx"]).has(path.join(SRC, "lib/messages.ts"))).toBe(true);
  });

  it("says a cart line's limit with its thousands grouped, as toLocaleString would, without Intl", () => {
    expect(messages.cart.lineLimit).toBe(`You can have at most ${MAX_CART_LINE_QUANTITY.toLocaleString("en-US")} of one item in your cart.`);
    expect(messages.cart.lineLimit).toBe("You can have at most 10,000 of one item in your cart.");
    expect(fs.readFileSync(path.join(SRC, "lib/storefront-messages.ts"), "utf8")).not.toMatch(/\.toLocale\w*\(|\bIntl\.\w+\(/);
  });

  it("messages still holds every text, the groups shipped on their own included", () => {
    for (const [group, texts] of Object.entries(storefrontMessages)) expect(messages[group as keyof typeof messages]).toBe(texts);
    expect(messages.bookings).toBe(bookingMessages);
  });
});
