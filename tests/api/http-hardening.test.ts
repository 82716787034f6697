import { describe, expect, it } from "vitest";
import nextConfig from "../../next.config.mjs";
import { POST } from "@/app/api/trpc/[trpc]/route";
import { messages } from "@/lib/messages";
import { contentSecurityPolicy, isSameOriginRequest, SECURITY_HEADERS } from "@/server/security/http-headers";
import { NextRequest } from "next/server";

describe("Content-Security-Policy", () => {
  const policy = contentSecurityPolicy("abc123", { dev: false });
  const directive = (name: string) => policy.split("; ").find((d) => d.startsWith(`${name} `));

  it("runs only scripts carrying the request's nonce, never eval, and forbids framing and plugins", () => {
    expect(directive("script-src")).toBe("script-src 'self' 'nonce-abc123' 'strict-dynamic'");
    expect(policy).not.toContain("unsafe-eval");
    expect(directive("frame-ancestors")).toBe("frame-ancestors 'none'");
    expect(directive("object-src")).toBe("object-src 'none'");
    expect(directive("base-uri")).toBe("base-uri 'self'");
  });

  it("lets forms post only here and to PayFast's hosted payment page (or PAYFAST_URL where that replaces it)", () => {
    expect(directive("form-action")).toBe(
      "form-action 'self' https://www.payfast.co.za https://sandbox.payfast.co.za https://*.payfast.co.za https://*.payfast.io",
    );
    const fake = contentSecurityPolicy("n", { dev: false, paymentPageUrl: "http://127.0.0.1:3150/" });
    expect(fake.split("; ").find((d) => d.startsWith("form-action "))).toBe("form-action 'self' http://127.0.0.1:3150");
  });

  it("lets the Supabase project in for images, fetches and realtime in Supabase mode only", () => {
    const supabase = contentSecurityPolicy("n", { dev: false, supabaseUrl: "https://abc.supabase.co" });
    expect(supabase).toContain("connect-src 'self' https://abc.supabase.co wss://abc.supabase.co");
    expect(supabase).toContain("img-src 'self' blob: data: https://abc.supabase.co");
    expect(policy).toContain("connect-src 'self';");
  });
});

describe("headers on every response", () => {
  it("next.config.mjs sends SECURITY_HEADERS on every path", async () => {
    const rules = await nextConfig.headers!();
    expect(rules).toEqual([{ source: "/:path*", headers: SECURITY_HEADERS }]);
    const names = SECURITY_HEADERS.map((h) => h.key);
    expect(names).toEqual(expect.arrayContaining(["X-Content-Type-Options", "Referrer-Policy", "X-Frame-Options"]));
  });
});

describe("same-origin rule for state changes (CSRF)", () => {
  const headers = (entries: Record<string, string>) => new Headers({ host: "shop.example", ...entries });

  it.each([
    ["the shop's own page", { origin: "https://shop.example", "sec-fetch-site": "same-origin" }, true],
    ["a non-browser client (no Origin, no Sec-Fetch-Site)", {}, true],
    ["another site", { origin: "https://evil.example", "sec-fetch-site": "cross-site" }, false],
    ["another site without Sec-Fetch-Site", { origin: "https://evil.example" }, false],
    ["a sibling subdomain", { origin: "https://x.shop.example", "sec-fetch-site": "same-site" }, false],
    ["a sandboxed frame (Origin: null)", { origin: "null" }, false],
    ["a garbled Origin", { origin: "::::" }, false],
    ["behind a proxy that forwards the host", { origin: "https://shop.example", host: "127.0.0.1:3000", "x-forwarded-host": "shop.example" }, true],
  ] as const)("%s → %s", (_label, entries, allowed) => {
    expect(isSameOriginRequest(headers(entries))).toBe(allowed);
  });

  it("the tRPC endpoint refuses a cross-site POST before running anything", async () => {
    const request = new NextRequest("http://shop.example/api/trpc/contact.send", {
      method: "POST",
      headers: { host: "shop.example", origin: "https://evil.example", "content-type": "application/json" },
      body: JSON.stringify({ json: { name: "x", email: "x@example.com", phone: "", message: "hi" } }),
    });
    const response = await POST(request);
    expect(response.status).toBe(403);
    const body = (await response.json()) as { error: { json: { message: string; data: { code: string } } } };
    expect(body.error.json.message).toBe(messages.security.crossOrigin);
    expect(body.error.json.data.code).toBe("FORBIDDEN");
  });
});
