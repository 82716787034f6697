import { describe, expect, it } from "vitest";
import { safeNextPath } from "@/server/auth/schemas";
import { accessDecision, ADMIN_LINKS, navLinksFor } from "@/server/auth/access";
import { signUpError, userFromClaims } from "@/server/platform/adapters/supabase/supabase-auth";
import { messages } from "@/lib/messages";

const visitor = null;
const customer = { role: "user" as const };
const admin = { role: "admin" as const };

describe("route guards (spec §2, docs/architecture.md#decisions-on-the-spec)", () => {
  it.each([
    ["customer", visitor, { allowed: false, redirectTo: "/auth/signin" }],
    ["customer", customer, { allowed: true }],
    ["customer", admin, { allowed: false, redirectTo: "/admin/dashboard" }],
    ["signed-in", visitor, { allowed: false, redirectTo: "/auth/signin" }],
    ["signed-in", customer, { allowed: true }],
    ["signed-in", admin, { allowed: true }],
    ["admin", visitor, { allowed: false, redirectTo: "/auth/signin" }],
    ["admin", customer, { allowed: false, redirectTo: "/profile" }],
    ["admin", admin, { allowed: true }],
  ] as const)("area %s for %o", (area, user, expected) => {
    expect(accessDecision(user, area)).toEqual(expected);
  });
});

describe("navigation links per role", () => {
  const labels = (user: Parameters<typeof navLinksFor>[0]) => navLinksFor(user).map((link) => link.label);
  it("visitors and customers get Products and Cart", () => {
    expect(labels(visitor)).toEqual(["Home", "About", "Contact", "Products", "Cart"]);
    expect(labels(customer)).toEqual(["Home", "About", "Contact", "Products", "Cart"]);
  });
  it("admins get Dashboard and Orders instead", () => {
    expect(labels(admin)).toEqual(["Home", "About", "Contact", "Dashboard", "Orders"]);
  });
  it("the header and the admin navigation call each admin page by the same name", () => {
    for (const link of navLinksFor(admin).filter((each) => each.href.startsWith("/admin/"))) {
      expect(ADMIN_LINKS.find((each) => each.href === link.href)?.label).toBe(link.label);
    }
  });
});

describe("redirect safety", () => {
  it.each([
    ["/products", "/products"],
    ["/products?category=Food", "/products?category=Food"],
    ["//evil.example/x", "/"],
    ["/\\evil.example", "/"],
    ["https://evil.example", "/"],
    ["javascript:alert(1)", "/"],
    ["/ok\nSet-Cookie: x", "/"],
    [undefined, "/"],
  ])("next=%s goes to %s", (next, expected) => {
    expect(safeNextPath(next)).toBe(expected);
  });
});

describe("Supabase adapter", () => {
  it("turns verified claims into the caller", () => {
    expect(userFromClaims({ sub: "u1", role: "authenticated", email: "a@b.test", user_metadata: { full_name: "A" } })).toEqual({
      id: "u1",
      email: "a@b.test",
      userMetadata: { full_name: "A" },
    });
  });

  it("treats anon or malformed claims as no user", () => {
    expect(userFromClaims({ role: "anon" })).toBeNull();
    expect(userFromClaims({ sub: 42, role: "authenticated" })).toBeNull();
    expect(userFromClaims(null)).toBeNull();
  });

  it("maps Supabase's sign-up errors to the spec's messages", () => {
    expect(signUpError({ code: "user_already_exists", message: "User already registered" }).message).toBe(messages.auth.emailInUse);
    expect(signUpError({ code: "weak_password", message: "Password should be at least 6 characters." }).message).toBe(messages.auth.weakPassword);
    expect(signUpError({ message: "Database error saving new user" }).message).toBe(messages.auth.signUpFailed);
  });

  it("reads the session from the request's cookies and makes no request without one", async () => {
    const { createSupabaseAuth } = await import("@/server/platform/adapters/supabase/supabase-auth");
    const { headerCookieJar } = await import("@/server/ports/cookies");
    const auth = createSupabaseAuth({ url: "http://127.0.0.1:9", anonKey: "anon" }, headerCookieJar(new Headers()));
    expect(await auth.currentUser()).toBeNull();
  });
});
