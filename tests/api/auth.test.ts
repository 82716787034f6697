import { trpcRefusal } from "../helpers/attempt";
import { randomUUID } from "node:crypto";
import { UnsecuredJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { messages } from "@/lib/messages";
import { SESSION_COOKIE, signSessionToken } from "@/server/platform/adapters/local/session-token";
import { adminProcedure, createCallerFactory, createContextFor, createTRPCRouter, signedInProcedure } from "@/server/api/trpc";
import { callerAs, TestBrowser, TEST_SECRET, testShopProcess } from "../helpers/browser";
import { createRequestServices } from "@/server/platform/request-services";
import { headerCookieJar } from "@/server/ports/cookies";
import { createUser, freshDatabase, type TestDatabase } from "../helpers/database";

let db: TestDatabase;
const m = messages.auth;

beforeAll(async () => {
  db = await freshDatabase({ seed: false });
});

afterAll(async () => {
  await db?.close();
});

function signUpValues(overrides: Partial<Record<string, unknown>> = {}) {
  return {
    fullName: "Zanele Dlamini",
    email: `zanele-${randomUUID().slice(0, 8)}@example.test`,
    password: "braai-2026",
    confirmPassword: "braai-2026",
    acceptTerms: true,
    ...overrides,
  } as { fullName: string; email: string; password: string; confirmPassword: string; acceptTerms: boolean };
}

async function userCount() {
  const row = await db.kysely.selectFrom("auth.users").select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The code and message a call is refused with (the shared helper fails the test if it is not refused). */
async function refusal(promise: Promise<unknown>) {
  const error = await trpcRefusal(promise);
  return { code: error.code, message: error.message };
}

describe("sign-up", () => {
  it("creates the account with the full name on the profile and signs the user in", async () => {
    const browser = new TestBrowser(db);
    const values = signUpValues();
    const setCookies = await browser.setCookiesOf((c) => c.auth.signUp(values));
    const session = setCookies.find((header) => header.startsWith(`${SESSION_COOKIE}=`));
    expect(session).toMatch(/HttpOnly/i);
    expect(session).toMatch(/SameSite=Lax/i);
    const user = await browser.call((c) => c.auth.session());
    expect(user).toMatchObject({ email: values.email, fullName: "Zanele Dlamini", displayName: "Zanele Dlamini", role: "user" });
    const profile = await db.kysely.selectFrom("profiles").selectAll().where("id", "=", user!.id).executeTakeFirstOrThrow();
    expect(profile).toMatchObject({ full_name: "Zanele Dlamini", email: values.email, role: "user" });
  });

  it("answers with the spec's success message", async () => {
    const result = await new TestBrowser(db).call((c) => c.auth.signUp(signUpValues()));
    expect(result.message).toBe(m.signUpSuccess);
  });

  it.each([
    ["an empty field", { fullName: " " }, m.fillAllFields],
    ["no confirmation", { confirmPassword: "" }, m.fillAllFields],
    ["different passwords", { confirmPassword: "braai-2027" }, m.passwordsDoNotMatch],
    ["terms not accepted", { acceptTerms: false }, m.agreeToTerms],
    ["a short password", { password: "abc", confirmPassword: "abc" }, m.weakPassword],
    ["a malformed email", { email: "not-an-email" }, m.invalidEmail],
    ["an over-long name", { fullName: "x".repeat(101) }, m.nameTooLong],
    ["an over-long email", { email: `${"x".repeat(250)}@example.test` }, m.emailTooLong],
    ["an over-long password", { password: "p".repeat(73), confirmPassword: "p".repeat(73) }, m.passwordTooLong],
  ])("refuses %s with a clear message and writes nothing", async (_case, overrides, message) => {
    const before = await userCount();
    const error = await refusal(new TestBrowser(db).call((c) => c.auth.signUp(signUpValues(overrides))));
    expect(error).toEqual({ code: "BAD_REQUEST", message });
    expect(await userCount()).toBe(before);
  });

  it("refuses an email already in use, whatever its case", async () => {
    const values = signUpValues();
    await new TestBrowser(db).call((c) => c.auth.signUp(values));
    const before = await userCount();
    const error = await refusal(new TestBrowser(db).call((c) => c.auth.signUp({ ...values, email: values.email.toUpperCase() })));
    expect(error).toEqual({ code: "CONFLICT", message: m.emailInUse });
    expect(await userCount()).toBe(before);
  });
});

describe("sign-in and sessions", () => {
  async function registered() {
    const values = signUpValues();
    await new TestBrowser(db).call((c) => c.auth.signUp(values));
    return values;
  }

  it("signs in with the right password", async () => {
    const { email, password } = await registered();
    const browser = new TestBrowser(db);
    expect(await browser.call((c) => c.auth.session())).toBeNull();
    expect(await browser.call((c) => c.auth.signIn({ email, password }))).toEqual({ message: m.signInSuccess, redirectTo: "/products" });
    expect(await new TestBrowser(db).call((c) => c.auth.signIn({ email, password, next: "//evil.example" }))).toMatchObject({ redirectTo: "/products" });
    expect(await new TestBrowser(db).call((c) => c.auth.signIn({ email, password, next: "/cart" }))).toMatchObject({ redirectTo: "/cart" });
    expect(await browser.call((c) => c.auth.session())).toMatchObject({ email });
  });

  it("refuses a wrong password or an unknown email with the provider's message", async () => {
    const { email } = await registered();
    const browser = new TestBrowser(db);
    expect(await refusal(browser.call((c) => c.auth.signIn({ email, password: "wrong-password" })))).toEqual({
      code: "UNAUTHORIZED",
      message: m.invalidCredentials,
    });
    expect(await refusal(browser.call((c) => c.auth.signIn({ email: "nobody@example.test", password: "whatever" })))).toEqual({
      code: "UNAUTHORIZED",
      message: m.invalidCredentials,
    });
    expect(browser.cookies.has(SESSION_COOKIE)).toBe(false);
  });

  it("asks for both fields", async () => {
    const error = await refusal(new TestBrowser(db).call((c) => c.auth.signIn({ email: "", password: "" })));
    expect(error).toEqual({ code: "BAD_REQUEST", message: m.fillAllFields });
  });

  it("ends the session on sign-out: the old cookie no longer works", async () => {
    const { email, password } = await registered();
    const browser = new TestBrowser(db);
    await browser.call((c) => c.auth.signIn({ email, password }));
    const stolen = browser.cookies.get(SESSION_COOKIE)!;
    await browser.call((c) => c.auth.signOut());
    expect(browser.cookies.has(SESSION_COOKIE)).toBe(false);
    browser.cookies.set(SESSION_COOKIE, stolen);
    expect(await browser.call((c) => c.auth.session())).toBeNull();
  });

  it("ignores a tampered, foreign or expired token", async () => {
    const { email, password } = await registered();
    const browser = new TestBrowser(db);
    await browser.call((c) => c.auth.signIn({ email, password }));
    const token = browser.cookies.get(SESSION_COOKIE)!;
    const [header, payload, signature] = token.split(".");
    const claims = JSON.parse(Buffer.from(payload!, "base64url").toString()) as Record<string, unknown>;
    const forged = Buffer.from(JSON.stringify({ ...claims, sub: randomUUID() })).toString("base64url");
    browser.cookies.set(SESSION_COOKIE, `${header}.${forged}.${signature}`);
    expect(await browser.call((c) => c.auth.session())).toBeNull();

    const foreign = await signSessionToken(new TextEncoder().encode("another-secret-another-secret-0123456789"), {
      userId: claims.sub as string,
      email,
      sessionId: claims.session_id as string,
      userMetadata: {},
      notAfter: Math.floor(Date.now() / 1000) + 3600,
    });
    browser.cookies.set(SESSION_COOKIE, foreign.token);
    expect(await browser.call((c) => c.auth.session())).toBeNull();

    const longAgo = Math.floor(Date.now() / 1000) - 8 * 24 * 3600;
    const expired = await signSessionToken(
      TEST_SECRET,
      { userId: claims.sub as string, email, sessionId: claims.session_id as string, userMetadata: {}, notAfter: longAgo + 30 * 24 * 3600 },
      longAgo,
    );
    browser.cookies.set(SESSION_COOKIE, expired.token);
    expect(await browser.call((c) => c.auth.session())).toBeNull();
  });

  it("renews a token that is more than a day old while the session lasts", async () => {
    const { email, password } = await registered();
    const browser = new TestBrowser(db);
    await browser.call((c) => c.auth.signIn({ email, password }));
    const claims = JSON.parse(Buffer.from(browser.cookies.get(SESSION_COOKIE)!.split(".")[1]!, "base64url").toString()) as Record<string, number | string>;
    const twoDaysAgo = Math.floor(Date.now() / 1000) - 2 * 24 * 3600;
    const old = await signSessionToken(
      TEST_SECRET,
      { userId: claims.sub as string, email, sessionId: claims.session_id as string, userMetadata: {}, notAfter: claims.not_after as number },
      twoDaysAgo,
    );
    browser.cookies.set(SESSION_COOKIE, old.token);
    expect(await browser.call((c) => c.auth.session())).toMatchObject({ email });
    const renewed = browser.cookies.get(SESSION_COOKIE)!;
    expect(renewed).not.toBe(old.token);
    const renewedClaims = JSON.parse(Buffer.from(renewed.split(".")[1]!, "base64url").toString()) as { iat: number };
    expect(renewedClaims.iat).toBeGreaterThan(twoDaysAgo);
  });

  it("takes the role from the profile, never from the token", async () => {
    const admin = await createUser(db, { role: "admin", fullName: "Boss" });
    const browser = new TestBrowser(db);
    const { token } = await signSessionToken(TEST_SECRET, {
      userId: admin.id,
      email: admin.email,
      sessionId: randomUUID(),
      userMetadata: { role: "admin" },
      notAfter: Math.floor(Date.now() / 1000) + 3600,
    });
    // A validly signed token for a session that was never started is still refused.
    browser.cookies.set(SESSION_COOKIE, token);
    expect(await browser.call((c) => c.auth.session())).toBeNull();
    expect((await (await callerAs(db, admin)).auth.session())?.role).toBe("admin");
  });
});

describe("brute force", () => {
  it("refuses sign-in for a while after 5 failures for one email, even with the right password", async () => {
    const values = signUpValues();
    await new TestBrowser(db).call((c) => c.auth.signUp(values));
    const attacker = new TestBrowser(db, { address: "198.51.100.7" });
    for (let i = 0; i < 5; i++) {
      await refusal(attacker.call((c) => c.auth.signIn({ email: values.email, password: `guess-${i}` })));
    }
    const error = await refusal(attacker.call((c) => c.auth.signIn({ email: values.email, password: values.password })));
    expect(error).toEqual({ code: "TOO_MANY_REQUESTS", message: m.tooManyAttempts(15) });
  });

  it("refuses an address after 20 failures across emails", async () => {
    const attacker = new TestBrowser(db, { address: "198.51.100.8" });
    for (let i = 0; i < 20; i++) {
      await refusal(attacker.call((c) => c.auth.signIn({ email: `victim-${i}@example.test`, password: "guess" })));
    }
    const error = await refusal(attacker.call((c) => c.auth.signIn({ email: "someone@example.test", password: "guess" })));
    expect(error.code).toBe("TOO_MANY_REQUESTS");
  });
});

describe("procedure guards", () => {
  const router = createTRPCRouter({
    mine: signedInProcedure.query(({ ctx }) => ctx.user.id),
    admin: adminProcedure.query(() => "ok"),
  });
  const createTestCaller = createCallerFactory(router);

  async function callerFor(user: Awaited<ReturnType<typeof createUser>> | null) {
    const base = await callerAs(db, user);
    const session = await base.auth.session();
    const services = createRequestServices(await testShopProcess(db), headerCookieJar(new Headers()), new Headers());
    return createTestCaller(createContextFor(services, session));
  }

  it("signed-in procedures refuse visitors with UNAUTHORIZED", async () => {
    expect((await refusal((await callerFor(null)).mine())).code).toBe("UNAUTHORIZED");
  });

  it("admin procedures refuse customers with FORBIDDEN and visitors with UNAUTHORIZED", async () => {
    const customer = await createUser(db);
    const admin = await createUser(db, { role: "admin" });
    expect((await refusal((await callerFor(customer)).admin())).code).toBe("FORBIDDEN");
    expect((await refusal((await callerFor(null)).admin())).code).toBe("UNAUTHORIZED");
    expect(await (await callerFor(admin)).admin()).toBe("ok");
  });
});

describe("Google sign-in", () => {
  it("says plainly when Google is not configured", async () => {
    const error = await refusal(new TestBrowser(db).call((c) => c.auth.googleStart({ next: "/products" })));
    expect(error).toEqual({ code: "PRECONDITION_FAILED", message: m.googleNotConfigured });
  });

  it("completes the code flow with Google's token endpoint and signs the user in", async () => {
    const google = { clientId: "client-123.apps.googleusercontent.com", clientSecret: "shh" };
    const email = `g-${randomUUID().slice(0, 8)}@gmail.test`;
    const idToken = new UnsecuredJWT({ email, email_verified: true, name: "Gugu Google" })
      .setIssuer("https://accounts.google.com")
      .setAudience(google.clientId)
      .setSubject("google-sub-1")
      .encode();
    const requests: string[] = [];
    const fakeFetch = (async (url: string | URL | Request) => {
      requests.push(String(url));
      return new Response(JSON.stringify({ id_token: idToken }), { status: 200, headers: { "content-type": "application/json" } });
    }) as typeof fetch;
    const browser = new TestBrowser(db, { google, fetch: fakeFetch });
    const { url } = await browser.call((c) => c.auth.googleStart({ next: "/products" }));
    const authorize = new URL(url);
    expect(authorize.origin).toBe("https://accounts.google.com");
    expect(authorize.searchParams.get("client_id")).toBe(google.clientId);
    const state = authorize.searchParams.get("state")!;

    // The callback: a wrong state is refused, the right one signs in.
    const { createLocalAuth } = await import("@/server/platform/adapters/local/local-auth");
    const { freshSignInLimits } = await import("../helpers/browser");
    const complete = async (stateParam: string) => {
      const requestHeaders = browser.requestHeaders();
      const responseHeaders = new Headers();
      const auth = createLocalAuth({
        db: db.kysely,
        cookies: headerCookieJar(requestHeaders, responseHeaders),
        requestHeaders,
        secret: TEST_SECRET,
        secureCookies: false,
        signInLimits: freshSignInLimits(),
        google,
        fetch: fakeFetch,
      });
      try {
        return await auth.completeOAuth({ origin: "http://localhost:3000", searchParams: new URLSearchParams({ code: "abc", state: stateParam }) });
      } finally {
        browser.absorb(responseHeaders);
      }
    };
    const cookiesBefore = new Map(browser.cookies);
    await expect(complete("forged-state")).rejects.toThrow(m.googleFailed);
    for (const [name, value] of cookiesBefore) browser.cookies.set(name, value);
    await complete(state);
    expect(requests).toEqual(["https://oauth2.googleapis.com/token"]);
    expect(await browser.call((c) => c.auth.session())).toMatchObject({ email, fullName: "Gugu Google" });
  });
});
