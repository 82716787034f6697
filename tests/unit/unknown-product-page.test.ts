import { describe, expect, it } from "vitest";
import { productPageLoad, unmatchedPath } from "@/server/catalogue/unknown-product-page";

const pageLoad = (path: string, headers: Record<string, string> = { accept: "text/html" }, method = "GET") => ({
  method,
  url: `http://localhost${path}`,
  headers: new Headers(headers),
});

describe("an unknown product's page load", () => {
  it("is recognised by its path, for a page load only", () => {
    expect(productPageLoad(pageLoad("/products/00000000-0000-0000-0000-000000000000"))).toBe("00000000-0000-0000-0000-000000000000");
    expect(productPageLoad(pageLoad("/products/nonsense"))).toBe("nonsense");
    expect(productPageLoad(pageLoad("/products"))).toBeNull();
    expect(productPageLoad(pageLoad("/products/a/b"))).toBeNull();
    expect(productPageLoad(pageLoad("/products/x", { accept: "*/*", rsc: "1" }))).toBeNull();
    expect(productPageLoad(pageLoad("/products/x", { accept: "text/html" }, "POST"))).toBeNull();
  });

  it("is rewritten to a path no route matches", () => {
    expect(unmatchedPath("00000000-0000-0000-0000-000000000000")).toBe("/products/00000000-0000-0000-0000-000000000000/not-found");
  });
});
