import { describe, expect, it } from "vitest";
import { env } from "@/env";
import { safeNextPath } from "@/server/auth/schemas";
import { messages } from "@/lib/messages";
import { SIGN_IN_REASONS, signInHref, signInReasonFor } from "@/lib/sign-in-paths";
import { googleFailureMessage, signInReasonMessage } from "@/lib/sign-in-texts";
import { googleFailureCode, googleSignInOffered } from "@/server/auth/google-sign-in";
import { AuthError } from "@/server/ports/auth";

const m = messages.auth;

describe("safeNextPath: where sign-in may send the browser back to", () => {
  it.each([
    ["/profile"],
    ["/cart"],
    ["/products?category=Food%20Products&page=2"],
    ["/products/1b4e28ba-2fa1-11d2-883f-0016d3cca427#details"],
    ["/"],
    ["/a/b//c"],
  ])("keeps the same-site path %s", (next) => {
    expect(safeNextPath(next)).toBe(next);
  });

  it.each([
    ["//evil.example", "protocol-relative address"],
    ["//evil.example/profile", "protocol-relative address with a path"],
    ["///evil.example", "three slashes"],
    ["https://evil.example", "absolute address"],
    ["http://localhost:3000/profile", "absolute address, even to this host"],
    ["/\\evil.example", "backslash, which browsers read as a slash"],
    ["/\\/evil.example", "backslash then slash"],
    ["\\\\evil.example", "two backslashes"],
    ["/\t/evil.example", "tab, which browsers drop"],
    ["/\n/evil.example", "newline, which browsers drop"],
    ["/ok\r\nSet-Cookie: x=1", "header injection"],
    ["/\u007f", "DEL"],
    ["javascript:alert(1)", "script address"],
    ["profile", "relative path"],
    [" /profile", "leading space"],
    ["", "empty"],
    ["/" + "a".repeat(2001), "absurdly long"],
  ])("refuses %j (%s)", (next) => {
    expect(safeNextPath(next)).toBe("/");
  });

  it("falls back to the given default for null, undefined and refused values", () => {
    expect(safeNextPath(null, "/products")).toBe("/products");
    expect(safeNextPath(undefined, "/admin/dashboard")).toBe("/admin/dashboard");
    expect(safeNextPath("//evil.example", "/products")).toBe("/products");
  });
});

describe("sign-in reasons", () => {
  it.each([
    ["/profile", "profile"],
    ["/cart", "cart"],
    ["/checkout", "checkout"],
    ["/admin/dashboard", "admin"],
    ["/admin/orders", "admin"],
    ["/admin/messages", "admin"],
    ["/cart?from=nav", "cart"],
    ["/products", undefined],
    ["/", undefined],
    ["/profiles", undefined],
  ] as const)("a guard on %s gives the reason %s", (path, reason) => {
    expect(signInReasonFor(path)).toBe(reason);
  });

  it("maps every reason to the message the sign-in page shows", () => {
    expect(signInReasonMessage("profile")).toBe("Please sign in to view your profile.");
    expect(signInReasonMessage("profile")).toBe(messages.profile.signInToView);
    expect(signInReasonMessage("cart")).toBe("Please sign in to view your cart.");
    expect(signInReasonMessage("checkout")).toBe("Please sign in to check out.");
    expect(signInReasonMessage("admin")).toBe("Please sign in to open the admin pages.");
    expect(signInReasonMessage("shop")).toBe(messages.cart.signInToAdd);
    // The paths' closed list (which ships to the browser without the texts) and the texts name the same reasons.
    expect(Object.keys(messages.auth.signInReason).sort()).toEqual([...SIGN_IN_REASONS].sort());
    for (const reason of SIGN_IN_REASONS) expect(signInReasonMessage(reason)).toBe(messages.auth.signInReason[reason]);
  });

  it.each([[undefined], [""], ["nonsense"], ["toString"], ["__proto__"], [["profile", "cart"]]])("shows nothing for the reason %j", (reason) => {
    expect(signInReasonMessage(reason)).toBeNull();
  });

  it("builds the guard's redirect with the way back first, then the reason", () => {
    expect(signInHref("/profile")).toBe("/auth/signin?next=%2Fprofile&reason=profile");
    expect(signInHref("/admin/orders")).toBe("/auth/signin?next=%2Fadmin%2Forders&reason=admin");
    expect(signInHref("/products/abc", "shop")).toBe("/auth/signin?next=%2Fproducts%2Fabc&reason=shop");
    expect(signInHref("/products?q=a&b")).toBe("/auth/signin?next=%2Fproducts%3Fq%3Da%26b");
  });
});

describe("Google sign-in", () => {
  const local = { ...env, NEXT_PUBLIC_SUPABASE_URL: undefined, NEXT_PUBLIC_SUPABASE_ANON_KEY: undefined, GOOGLE_CLIENT_ID: undefined, GOOGLE_CLIENT_SECRET: undefined };

  it("is offered in the local modes only with both Google credentials", () => {
    expect(googleSignInOffered(local)).toBe(false);
    expect(googleSignInOffered({ ...local, GOOGLE_CLIENT_ID: "id" })).toBe(false);
    expect(googleSignInOffered({ ...local, GOOGLE_CLIENT_SECRET: "secret" })).toBe(false);
    expect(googleSignInOffered({ ...local, GOOGLE_CLIENT_ID: "id", GOOGLE_CLIENT_SECRET: "secret" })).toBe(true);
    expect(googleSignInOffered({ ...local, DATABASE_URL: "postgres://x", GOOGLE_CLIENT_ID: "id", GOOGLE_CLIENT_SECRET: "secret" })).toBe(true);
  });

  it("is assumed configured in Supabase mode, where Supabase holds the credentials", () => {
    expect(googleSignInOffered({ ...local, NEXT_PUBLIC_SUPABASE_URL: "https://x.supabase.co", NEXT_PUBLIC_SUPABASE_ANON_KEY: "anon" })).toBe(true);
  });

  it("names why a sign-in came back without a session", () => {
    expect(googleFailureCode(new AuthError("oauth_failed", m.googleFailed), "access_denied")).toBe("cancelled");
    expect(googleFailureCode(new AuthError("google_not_configured", m.googleNotConfigured), null)).toBe("not_configured");
    expect(googleFailureCode(new AuthError("oauth_failed", m.googleFailed), null)).toBe("failed");
    expect(googleFailureCode(new Error("network"), "server_error")).toBe("failed");
  });

  it("shows 'Error: ' and the reason on the sign-in page, and a plain failure for unknown codes", () => {
    expect(googleFailureMessage("cancelled")).toBe("Error: Google sign-in was cancelled.");
    expect(googleFailureMessage("not_configured")).toBe(`Error: ${m.googleNotConfigured}`);
    expect(googleFailureMessage("failed")).toBe(`Error: ${m.googleFailed}`);
    expect(googleFailureMessage("<script>")).toBe(`Error: ${m.googleFailed}`);
    expect(googleFailureMessage("hasOwnProperty")).toBe(`Error: ${m.googleFailed}`);
    expect(googleFailureMessage(undefined)).toBe(`Error: ${m.googleFailed}`);
  });
});
