import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { parseSetCookie } from "cookie";
import { NextRequest } from "next/server";
import { afterAll, describe, expect, it, vi } from "vitest";
import { GET as authCallbackRoute } from "@/app/auth/callback/route";
import { POST as signOutRoute } from "@/app/auth/signout/route";
import { GET as profileExportRoute } from "@/app/profile/export/route";
import { authLinkMessages, messages } from "@/lib/messages";
import { finishAuthCallback } from "@/server/auth/auth-callback";
import { callbackFlowOf, emailLinkNotice } from "@/server/auth/callback-flow";
import { publicOrigin, seeOther } from "@/server/http/redirect";
import { createSupabaseAuth } from "@/server/platform/adapters/supabase/supabase-auth";
import { headerCookieJar } from "@/server/ports/cookies";

/**
 * Every redirect a route handler answers stays on the shop, whatever host the browser used: the
 * issue was a production server reached as shop.example.co.za answering 303s to
 * http://localhost:<port>/... (Next.js's `request.nextUrl.origin`), and an e-mail confirmation
 * that landed signed out, labelled as a Google sign-in, with its PKCE cookies left behind.
 */

// The route handlers run on the platform as configured, so it must be the embedded mode on a
// data directory of this file's own, decided before anything reads the environment.
const { dataDir } = vi.hoisted(() => {
  const dir = `${process.env.TMPDIR ?? "/tmp"}/shop-redirects-${process.pid}-${Date.now()}`;
  process.env.DATA_DIR = dir;
  for (const name of ["DATABASE_URL", "NEXT_PUBLIC_SUPABASE_URL", "NEXT_PUBLIC_SUPABASE_ANON_KEY", "SUPABASE_SERVICE_ROLE_KEY", "SITE_URL", "TRUST_PROXY", "SMTP_URL", "GOOGLE_CLIENT_ID", "GOOGLE_CLIENT_SECRET"]) {
    delete process.env[name];
  }
  return { dataDir: dir };
});

// `connection()` marks a render as per-request inside Next.js; called outside one (here) it throws.
// Nothing is rendered in these tests, so it does nothing; everything else is the real thing.
vi.mock("next/server", async (importOriginal) => ({ ...(await importOriginal<typeof import("next/server")>()), connection: async () => {} }));

afterAll(() => {
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const SHOP_HOST = "shop.example.co.za";
/** What Next.js makes of a request it serves on its own port, whatever Host the browser sent. */
const SERVER_URL = "http://localhost:3555";

/** A Location that keeps the browser on the host it used: a path on this site, never another host. */
function expectStaysOnShop(location: string | null) {
  expect(location).not.toBeNull();
  expect(location).toMatch(/^\/(?![/\\])/);
  expect(location).not.toContain("localhost");
}

describe("every route handler that redirects", () => {
  it("answers with seeOther: none builds an absolute target from the request (a check on the sources)", () => {
    const appDir = path.resolve(import.meta.dirname, "../../src/app");
    const routes = fs.readdirSync(appDir, { recursive: true, encoding: "utf8" }).filter((file) => file.endsWith("route.ts"));
    expect(routes.length).toBeGreaterThanOrEqual(6);
    for (const route of routes) {
      const text = fs.readFileSync(path.join(appDir, route), "utf8");
      expect(text, route).not.toMatch(/NextResponse\.redirect|Response\.redirect|nextUrl\.origin|status:\s*30[1278]/);
    }
  });
});

describe("seeOther", () => {
  it("answers 303 with a relative Location and the response's cookies, never cached", () => {
    const headers = new Headers();
    headers.append("set-cookie", "a=1; Path=/");
    headers.append("set-cookie", "b=; Path=/; Max-Age=0");
    const response = seeOther("/auth/signin?next=%2Fprofile&reason=profile", headers);
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/auth/signin?next=%2Fprofile&reason=profile");
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.getSetCookie()).toEqual(["a=1; Path=/", "b=; Path=/; Max-Age=0"]);
  });

  it.each(["https://evil.example/", "//evil.example", "/\\evil.example", "products"])("refuses to send the browser off the site: %s", (target) => {
    expect(() => seeOther(target)).toThrow(/off the site/);
  });
});

describe("publicOrigin: the absolute address OAuth and confirmation links come back to", () => {
  const none = { SITE_URL: undefined, TRUST_PROXY: false };
  const headers = (entries: Record<string, string>) => new Headers(entries);

  it("is SITE_URL when set, whatever the request says", () => {
    const config = { SITE_URL: "https://shop.example.co.za/", TRUST_PROXY: true };
    expect(publicOrigin(headers({ host: "localhost:3555", "x-forwarded-host": "evil.example" }), config)).toBe("https://shop.example.co.za");
    expect(() => publicOrigin(headers({ host: SHOP_HOST }), { SITE_URL: "shop.example.co.za", TRUST_PROXY: false })).toThrow(/SITE_URL/);
  });

  it("believes the forwarded host and protocol only behind a trusted proxy (TRUST_PROXY)", () => {
    const proxied = headers({ host: "127.0.0.1:3000", "x-forwarded-host": `evil.example, ${SHOP_HOST}`, "x-forwarded-proto": "https" });
    expect(publicOrigin(proxied, { SITE_URL: undefined, TRUST_PROXY: true })).toBe(`https://${SHOP_HOST}`);
    expect(publicOrigin(proxied, none)).toBe("http://127.0.0.1:3000");
  });

  it("is otherwise the Host the browser reached this server by, with the scheme its Origin names", () => {
    expect(publicOrigin(headers({ host: SHOP_HOST }), none)).toBe(`http://${SHOP_HOST}`);
    expect(publicOrigin(headers({ host: SHOP_HOST, origin: `https://${SHOP_HOST}` }), none)).toBe(`https://${SHOP_HOST}`);
    // Another site's Origin lends no scheme.
    expect(publicOrigin(headers({ host: SHOP_HOST, origin: "https://evil.example" }), none)).toBe(`http://${SHOP_HOST}`);
  });

  it("takes no host that carries more than a host", () => {
    expect(() => publicOrigin(headers({ host: "evil.example/path" }), none)).toThrow(/SITE_URL/);
    expect(() => publicOrigin(headers({ host: "user@evil.example" }), none)).toThrow(/SITE_URL/);
    expect(() => publicOrigin(headers({}), none)).toThrow(/SITE_URL/);
  });
});

/** A browser's cookies, as Set-Cookie headers leave them. */
class CookieBrowser {
  readonly cookies = new Map<string, string>();

  requestHeaders(): Headers {
    const headers = new Headers({ host: SHOP_HOST });
    if (this.cookies.size > 0) headers.set("cookie", [...this.cookies].map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join("; "));
    return headers;
  }

  absorb(setCookies: string[]) {
    for (const header of setCookies) {
      const cookie = parseSetCookie(header);
      if (cookie.maxAge === 0 || !cookie.value) this.cookies.delete(cookie.name);
      else this.cookies.set(cookie.name, cookie.value);
    }
  }

  names(): string[] {
    return [...this.cookies.keys()].sort();
  }
}

describe("the auth callback, against Supabase Auth's answers", () => {
  const PROJECT = "https://project.supabase.co";
  const STORAGE_KEY = "sb-project-auth-token";
  const USER = {
    id: "6f1c2a10-3b4d-4e5f-8a01-00000000abcd",
    aud: "authenticated",
    role: "authenticated",
    email: "new@example.test",
    email_confirmed_at: "2026-11-23T00:05:00Z",
    user_metadata: { full_name: "New Customer" },
    app_metadata: { provider: "email", providers: ["email"] },
    identities: [{ id: "x", identity_id: "y", user_id: "6f1c2a10-3b4d-4e5f-8a01-00000000abcd", provider: "email", identity_data: {} }],
    created_at: "2026-11-23T00:00:00Z",
  };
  const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const accessToken = `${base64url({ alg: "HS256", typ: "JWT" })}.${base64url({ sub: USER.id, role: "authenticated", aud: "authenticated", exp: 4102444800 })}.signature`;
  /** POST /token?grant_type=pkce, as Supabase Auth answers a good code and verifier. */
  const SESSION = { access_token: accessToken, token_type: "bearer", expires_in: 3600, expires_at: 4102444800, refresh_token: "refresh-1", user: USER };

  type Call = { url: URL; body: Record<string, unknown> };
  type Answer = (call: Call) => { status: number; json: unknown };

  /** One request of `browser` to the shop in Supabase mode, Supabase Auth answering with `answer`. */
  function request(browser: CookieBrowser, answer: Answer) {
    const seen: Call[] = [];
    const fetchStub: typeof fetch = async (input, init) => {
      const url = new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url);
      const call = { url, body: init?.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : {} };
      seen.push(call);
      const { status, json } = answer(call);
      return new Response(JSON.stringify(json), { status, headers: { "content-type": "application/json", "x-supabase-api-version": "2024-01-01" } });
    };
    const requestHeaders = browser.requestHeaders();
    const responseHeaders = new Headers();
    const auth = createSupabaseAuth({ url: PROJECT, anonKey: "anon-key", fetch: fetchStub }, headerCookieJar(requestHeaders, responseHeaders));
    return { auth, seen, requestHeaders, responseHeaders };
  }

  /** Signs up in `browser` and answers the link Supabase Auth's /verify would send it back to, with `code`. */
  async function signUpAndFollowLink(browser: CookieBrowser, code: string) {
    const signUp = request(browser, () => ({ status: 200, json: USER }));
    await signUp.auth.signUp({ email: USER.email, password: "long-enough-2026", fullName: "New Customer", origin: publicOrigin(signUp.requestHeaders) });
    browser.absorb(signUp.responseHeaders.getSetCookie());
    const signupCall = signUp.seen.find((call) => call.url.pathname === "/auth/v1/signup")!;
    const link = new URL(signupCall.url.searchParams.get("redirect_to")!);
    link.searchParams.set("code", code);
    return { link, challenge: signupCall.body.code_challenge as string };
  }

  async function callback(browser: CookieBrowser, link: URL, answer: Answer) {
    const { auth, seen, requestHeaders, responseHeaders } = request(browser, answer);
    const target = await finishAuthCallback({ auth, origin: publicOrigin(requestHeaders), searchParams: link.searchParams });
    const response = seeOther(target, responseHeaders);
    browser.absorb(response.headers.getSetCookie());
    return { response, location: response.headers.get("location"), seen, setCookies: response.headers.getSetCookie() };
  }

  const verifierCookies = (names: string[]) => names.filter((name) => name.endsWith("-code-verifier") || /-code-verifier\.\d+$/.test(name));

  it("a confirmed sign-up lands signed in on `next`, and its verifier cookies are deleted", async () => {
    const browser = new CookieBrowser();
    const { link, challenge } = await signUpAndFollowLink(browser, "pkce-code-1");
    expect(link.href).toBe(`http://${SHOP_HOST}/auth/callback?flow=signup&next=%2Fproducts&code=pkce-code-1`);
    expect(verifierCookies(browser.names())).toHaveLength(3);

    const { response, location, seen, setCookies } = await callback(browser, link, ({ url }) =>
      url.pathname === "/auth/v1/token" && url.searchParams.get("grant_type") === "pkce" ? { status: 200, json: SESSION } : { status: 404, json: {} },
    );
    expect(response.status).toBe(303);
    expect(location).toBe("/products");
    // The code went with the verifier the sign-up kept in this browser (its challenge matches).
    const exchange = seen.find((call) => call.url.pathname === "/auth/v1/token")!;
    expect(exchange.body.auth_code).toBe("pkce-code-1");
    expect(createHash("sha256").update(String(exchange.body.code_verifier)).digest("base64url")).toBe(challenge);
    // Signed in: the session cookie is set; every verifier cookie is deleted on the shop's path.
    expect(browser.names().some((name) => name === STORAGE_KEY || name === `${STORAGE_KEY}.0`)).toBe(true);
    expect(verifierCookies(browser.names())).toEqual([]);
    for (const header of setCookies.filter((each) => /-code-verifier[=.]/.test(each))) expect(header).toMatch(/Max-Age=0/);
    for (const header of setCookies.filter((each) => /-code-verifier[=.]/.test(each))) expect(header).toMatch(/Path=\//);
  });

  it("an expired or used confirmation link says so in confirmation words, signed out, verifiers gone", async () => {
    const browser = new CookieBrowser();
    const { link } = await signUpAndFollowLink(browser, "pkce-code-2");
    const { location } = await callback(browser, link, () => ({ status: 404, json: { code: "flow_state_not_found", message: "invalid flow state, no valid flow state found" } }));
    expectStaysOnShop(location);
    expect(location).toBe("/auth/signin?error=signup&reason=expired&next=%2Fproducts");
    expect(browser.names()).toEqual([]);
    const params = new URL(location!, "http://x").searchParams;
    expect(emailLinkNotice(params.get("error"), params.get("reason"))).toEqual({ text: authLinkMessages.signup.expired, tone: "error" });
    expect(authLinkMessages.signup.expired).toMatch(/^This confirmation link has expired or was already used/);
  });

  it("a link Supabase Auth refused before the exchange (no code) is an expired confirmation too", async () => {
    const browser = new CookieBrowser();
    const { link } = await signUpAndFollowLink(browser, "unused");
    link.searchParams.delete("code");
    link.searchParams.set("error", "access_denied");
    link.searchParams.set("error_code", "otp_expired");
    const { location, seen } = await callback(browser, link, () => ({ status: 500, json: {} }));
    expect(location).toBe("/auth/signin?error=signup&reason=expired&next=%2Fproducts");
    expect(seen).toEqual([]);
    expect(verifierCookies(browser.names())).toEqual([]);
  });

  it("a confirmation opened in another browser says the address is confirmed and asks for a sign-in", async () => {
    const { link } = await signUpAndFollowLink(new CookieBrowser(), "pkce-code-3");
    const elsewhere = new CookieBrowser();
    const { location, seen } = await callback(elsewhere, link, () => ({ status: 200, json: SESSION }));
    expect(location).toBe("/auth/signin?error=signup&reason=other_browser&next=%2Fproducts");
    // auth-js has no verifier to send, so Supabase Auth is not asked.
    expect(seen).toEqual([]);
    expect(emailLinkNotice("signup", "other_browser")).toEqual({ text: authLinkMessages.signup.other_browser, tone: "info" });
  });

  /** Starts Google sign-in in `browser` and answers the callback URL Supabase Auth would send it back to. */
  async function startGoogle(browser: CookieBrowser, code: string) {
    const start = request(browser, () => ({ status: 200, json: {} }));
    const authorize = new URL(await start.auth.googleSignInUrl({ origin: publicOrigin(start.requestHeaders), next: "/cart" }));
    browser.absorb(start.responseHeaders.getSetCookie());
    const link = new URL(authorize.searchParams.get("redirect_to")!);
    link.searchParams.set("code", code);
    return link;
  }

  it("Google keeps its own words: success and failures go to the sign-in page, relative", async () => {
    const browser = new CookieBrowser();
    const google = await startGoogle(browser, "google-code");
    expect(google.href).toBe(`http://${SHOP_HOST}/auth/callback?flow=google&next=%2Fcart&code=google-code`);
    const ok = await callback(browser, google, () => ({ status: 200, json: SESSION }));
    expect(ok.location).toBe("/auth/signin?google=success&next=%2Fcart");
    expect(verifierCookies(browser.names())).toEqual([]);

    const cancelled = new URL(`http://${SHOP_HOST}/auth/callback?flow=google&next=%2Fcart&error=access_denied`);
    expect((await callback(new CookieBrowser(), cancelled, () => ({ status: 500, json: {} }))).location).toBe("/auth/signin?error=google&reason=cancelled&next=%2Fcart");

    const again = new CookieBrowser();
    const failed = await callback(again, await startGoogle(again, "google-code-2"), () => ({ status: 400, json: { code: "bad_code_verifier", message: "code challenge does not match" } }));
    expect(failed.location).toBe("/auth/signin?error=google&reason=failed&next=%2Fcart");
  });

  it("magic links and recovery links are labelled as themselves if they arrive", async () => {
    for (const flow of ["magiclink", "recovery"] as const) {
      const link = new URL(`http://${SHOP_HOST}/auth/callback?flow=${flow}&next=%2Fprofile&code=c`);
      const failed = await callback(new CookieBrowser(), link, () => ({ status: 200, json: SESSION }));
      expect(failed.location).toBe(`/auth/signin?error=${flow}&reason=other_browser&next=%2Fprofile`);
      expect(emailLinkNotice(flow, "expired")).toEqual({ text: authLinkMessages[flow].expired, tone: "error" });
    }
  });

  it("a link without a flow is Google's (the local modes' redirect carries none); a foreign `next` is dropped", async () => {
    expect(callbackFlowOf(new URLSearchParams("code=x"))).toBe("google");
    expect(callbackFlowOf(new URLSearchParams("flow=admin"))).toBe("google");
    const link = new URL(`http://${SHOP_HOST}/auth/callback?flow=signup&next=%2F%2Fevil.example&code=c`);
    const { location } = await callback(new CookieBrowser(), link, () => ({ status: 200, json: SESSION }));
    expect(location).toBe("/auth/signin?error=signup&reason=other_browser&next=%2Fproducts");
  });
});

describe("the route handlers themselves (embedded mode), reached as shop.example.co.za", () => {
  const get = (pathAndQuery: string) => new NextRequest(`${SERVER_URL}${pathAndQuery}`, { headers: { host: SHOP_HOST, "x-forwarded-for": "203.0.113.7" } });

  it("/profile/export sends a visitor to sign in, on the shop's own host", async () => {
    const response = await profileExportRoute(get("/profile/export"));
    expect(response.status).toBe(303);
    expectStaysOnShop(response.headers.get("location"));
    expect(response.headers.get("location")).toBe("/auth/signin?next=%2Fprofile&reason=profile");
  }, 120_000);

  it("/auth/signout (the Sign Out form) sends the browser home as a new document and clears what it kept; a post from another site is refused", async () => {
    const post = (headers: Record<string, string>) =>
      new NextRequest(`${SERVER_URL}/auth/signout`, { method: "POST", headers: { host: SHOP_HOST, "x-forwarded-for": "203.0.113.7", ...headers } });
    const own = await signOutRoute(post({ origin: `https://${SHOP_HOST}`, "sec-fetch-site": "same-origin" }));
    expect(own.status).toBe(303);
    expectStaysOnShop(own.headers.get("location"));
    expect(own.headers.get("location")).toBe("/");
    expect(own.headers.get("clear-site-data")).toBe('"cache"');
    expect(own.headers.get("cache-control")).toBe("no-store");
    const foreigners: Record<string, string>[] = [{ origin: "https://evil.example", "sec-fetch-site": "cross-site" }, { origin: "null" }, { "sec-fetch-site": "same-site" }];
    for (const foreign of foreigners) {
      const refused = await signOutRoute(post(foreign));
      expect(refused.status, JSON.stringify(foreign)).toBe(403);
      expect(await refused.text()).toBe(messages.security.crossOrigin);
      expect(refused.headers.get("clear-site-data")).toBeNull();
      expect(refused.headers.get("set-cookie")).toBeNull();
    }
  }, 120_000);

  it("/auth/callback answers relative redirects, in the words of the link's flow", async () => {
    // No Google client here: the local adapter says Google is not configured.
    const google = await authCallbackRoute(get("/auth/callback?flow=google&next=%2Fcart&code=abc&state=s"));
    expect(google.status).toBe(303);
    expectStaysOnShop(google.headers.get("location"));
    expect(google.headers.get("location")).toBe("/auth/signin?error=google&reason=not_configured&next=%2Fcart");

    const signup = await authCallbackRoute(get("/auth/callback?flow=signup&next=%2Fproducts&code=abc"));
    expectStaysOnShop(signup.headers.get("location"));
    expect(signup.headers.get("location")).toBe("/auth/signin?error=signup&reason=expired&next=%2Fproducts");
    expect(messages.auth.googleFailure.not_configured).toBe(messages.auth.googleNotConfigured);
  }, 120_000);
});
