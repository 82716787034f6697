import { createClient } from "@supabase/supabase-js";
import { parseSetCookie } from "cookie";
import { describe, expect, it } from "vitest";
import { messages } from "@/lib/messages";
import { CODE_VERIFIER_MAX_AGE, createSupabaseAuth, isCodeVerifierCookie, isRecoverySession, supabaseStorageKey } from "@/server/platform/adapters/supabase/supabase-auth";
import { accountMessages } from "@/lib/messages";
import { callbackFlowOf, emailLinkNotice } from "@/server/auth/callback-flow";
import { AuthError } from "@/server/ports/auth";
import { headerCookieJar } from "@/server/ports/cookies";

/**
 * The Supabase auth adapter against Supabase Auth's HTTP answers (as GoTrue sends them), for a
 * project with e-mail confirmation on: no session at sign-up, "email_not_confirmed" at sign-in,
 * and the confirmation sent again on request.
 */
const URL_ = "https://project.supabase.co";
const USER = {
  id: "6f1c2a10-3b4d-4e5f-8a01-00000000abcd",
  aud: "authenticated",
  role: "authenticated",
  email: "new@example.test",
  user_metadata: { full_name: "New Customer" },
  app_metadata: { provider: "email", providers: ["email"] },
  identities: [{ id: "x", identity_id: "y", user_id: "6f1c2a10-3b4d-4e5f-8a01-00000000abcd", provider: "email", identity_data: {} }],
  created_at: "2026-11-23T00:00:00Z",
};

function authWith(answer: (url: URL, body: Record<string, unknown>) => { status: number; json: unknown }) {
  const seen: { path: string; body: Record<string, unknown> }[] = [];
  const fetchStub: typeof fetch = async (input, init) => {
    const url = new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url);
    const body = init?.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : {};
    seen.push({ path: url.pathname, body });
    const { status, json } = answer(url, body);
    return new Response(JSON.stringify(json), { status, headers: { "content-type": "application/json" } });
  };
  const client = createClient(URL_, "anon-key", { auth: { persistSession: false, autoRefreshToken: false, flowType: "implicit" }, global: { fetch: fetchStub } });
  const auth = createSupabaseAuth({ url: URL_, anonKey: "anon-key" }, headerCookieJar(new Headers()), client);
  return { auth, seen };
}

describe("Supabase auth with e-mail confirmation on", () => {
  it("a sign-up without a session is not signed in, and the link comes back to the shop", async () => {
    const { auth, seen } = authWith(() => ({ status: 200, json: USER }));
    const result = await auth.signUp({ email: USER.email, password: "long-enough-2026", fullName: "New Customer", origin: "https://shop.example" });
    expect(result.signedIn).toBe(false);
    expect(result.user.id).toBe(USER.id);
    const signup = seen.find((call) => call.path.endsWith("/signup"));
    expect(signup?.body).toMatchObject({ email: USER.email, data: { full_name: "New Customer" } });
    expect(seen.find((call) => call.path.endsWith("/signup"))).toBeDefined();
  });

  it("a sign-up with a session is signed in", async () => {
    const { auth } = authWith(() => ({
      status: 200,
      json: { access_token: "a.b.c", refresh_token: "r", token_type: "bearer", expires_in: 3600, expires_at: 4102444800, user: USER },
    }));
    expect((await auth.signUp({ email: USER.email, password: "long-enough-2026", fullName: "New Customer", origin: "https://shop.example" })).signedIn).toBe(true);
  });

  it("signing in before confirming says so", async () => {
    const { auth } = authWith(() => ({ status: 400, json: { code: 400, error_code: "email_not_confirmed", msg: "Email not confirmed" } }));
    const error = await auth.signIn({ email: USER.email, password: "long-enough-2026" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthError);
    expect(error).toMatchObject({ code: "email_not_confirmed", message: messages.auth.emailNotConfirmed });
  });

  it("sends the confirmation again, and tells nobody whether the address has an account", async () => {
    const sent = authWith(() => ({ status: 200, json: {} }));
    await sent.auth.resendConfirmation({ email: USER.email, origin: "https://shop.example" });
    const resend = sent.seen.find((call) => call.path.endsWith("/resend"));
    expect(resend?.body).toMatchObject({ type: "signup", email: USER.email });

    const unknown = authWith(() => ({ status: 400, json: { code: 400, error_code: "user_not_found", msg: "User not found" } }));
    await expect(unknown.auth.resendConfirmation({ email: "nobody@example.test", origin: "https://shop.example" })).resolves.toBeUndefined();

    const limited = authWith(() => ({ status: 429, json: { code: 429, error_code: "over_email_send_rate_limit", msg: "too many" } }));
    await expect(limited.auth.resendConfirmation({ email: USER.email, origin: "https://shop.example" })).rejects.toMatchObject({ code: "rate_limited" });
  });
});

/**
 * The adapter as the shop runs it: @supabase/ssr's server client (PKCE), with the session and
 * the code verifiers in this request's cookies. What leaves in Set-Cookie is what a browser keeps.
 */
describe("Supabase auth's PKCE cookies and links", () => {
  const STORAGE_KEY = "sb-project-auth-token";

  function pkceAuthWith(answer: (url: URL, body: Record<string, unknown>) => { status: number; json: unknown }, requestCookies = "") {
    const seen: { url: URL; body: Record<string, unknown> }[] = [];
    const fetchStub: typeof fetch = async (input, init) => {
      const url = new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url);
      const body = init?.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : {};
      seen.push({ url, body });
      const { status, json } = answer(url, body);
      return new Response(JSON.stringify(json), { status, headers: { "content-type": "application/json" } });
    };
    const responseHeaders = new Headers();
    const cookies = headerCookieJar(new Headers(requestCookies ? { cookie: requestCookies } : {}), responseHeaders);
    const auth = createSupabaseAuth({ url: URL_, anonKey: "anon-key", fetch: fetchStub }, cookies);
    /** The cookies as a browser applies this response: name → value, or null once deleted. */
    const cookieOutcome = () => {
      const outcome = new Map<string, { value: string | null; maxAge?: number; path?: string }>();
      for (const header of responseHeaders.getSetCookie()) {
        const cookie = parseSetCookie(header);
        const deleted = cookie.maxAge === 0 || !cookie.value;
        outcome.set(cookie.name, { value: deleted ? null : (cookie.value ?? null), maxAge: cookie.maxAge, path: cookie.path });
      }
      return outcome;
    };
    return { auth, seen, cookieOutcome };
  }

  const verifierNames = (outcome: Map<string, unknown>) => [...outcome.keys()].filter((name) => name.endsWith("-code-verifier")).sort();

  it("a sign-up's confirmation link comes back to the callback as a sign-up, and its verifiers live a day, not 400", async () => {
    const { auth, seen, cookieOutcome } = pkceAuthWith(() => ({ status: 200, json: USER }));
    expect((await auth.signUp({ email: USER.email, password: "long-enough-2026", fullName: "New Customer", origin: "https://shop.example.co.za" })).signedIn).toBe(false);

    const signup = seen.find((call) => call.url.pathname.endsWith("/signup"));
    expect(signup?.url.searchParams.get("redirect_to")).toBe("https://shop.example.co.za/auth/callback?flow=signup&next=%2Fproducts");
    expect(signup?.body).toMatchObject({ code_challenge_method: "s256" });

    const outcome = cookieOutcome();
    const names = verifierNames(outcome);
    // auth-js's three: the fixed copy, the flow's own slot and the index of pending flows.
    expect(names).toHaveLength(3);
    expect(names).toContain(`${STORAGE_KEY}-code-verifier`);
    expect(names).toContain(`${STORAGE_KEY}-flows-code-verifier`);
    expect(names.some((name) => /^sb-project-auth-token-flow-[0-9a-f]+-code-verifier$/.test(name))).toBe(true);
    for (const name of names) expect(outcome.get(name)).toMatchObject({ maxAge: CODE_VERIFIER_MAX_AGE, path: "/" });
    expect(CODE_VERIFIER_MAX_AGE).toBe(86_400);
  });

  it("a password reset mail comes back to the callback's recovery flow, on to /auth/reset, with a PKCE challenge (issue 34)", async () => {
    const { auth, seen, cookieOutcome } = pkceAuthWith(() => ({ status: 200, json: {} }));
    await auth.requestPasswordReset({ email: USER.email, origin: "https://shop.example.co.za" });
    const recover = seen.find((call) => call.url.pathname.endsWith("/recover"));
    expect(recover?.body).toMatchObject({ email: USER.email, code_challenge_method: "s256" });
    expect(recover?.url.searchParams.get("redirect_to")).toMatch(/^https:\/\/shop\.example\.co\.za\/auth\/callback\?flow=recovery&next=%2Fauth%2Freset/);
    expect(verifierNames(cookieOutcome())).toHaveLength(3);
  });

  it("a refused reset request says nothing about the address, but a rate limit is told; no verifier stays", async () => {
    const refused = pkceAuthWith(() => ({ status: 400, json: { code: 400, error_code: "validation_failed", msg: "Unable to validate email address" } }));
    await expect(refused.auth.requestPasswordReset({ email: USER.email, origin: "https://shop.example.co.za" })).resolves.toBeUndefined();
    const limited = pkceAuthWith(() => ({ status: 429, json: { code: 429, error_code: "over_email_send_rate_limit", msg: "For security purposes, you can only request this after 40 seconds." } }));
    await expect(limited.auth.requestPasswordReset({ email: USER.email, origin: "https://shop.example.co.za" })).rejects.toMatchObject({ code: "rate_limited", message: accountMessages.resetLimited });
    expect([...limited.cookieOutcome().values()].every((cookie) => cookie.value === null)).toBe(true);
  });

  it("a new password without a recovery session is refused, and Supabase is not asked to change it", async () => {
    const { auth, seen } = pkceAuthWith(() => ({ status: 200, json: USER }));
    await expect(auth.resetPassword({ password: "new-password-2026" })).rejects.toMatchObject({ code: "invalid_link", message: accountMessages.resetLinkInvalid });
    expect(seen.some((call) => call.url.pathname.endsWith("/user"))).toBe(false);
  });

  it("a local e-mail change link means nothing on Supabase", async () => {
    const { auth } = pkceAuthWith(() => ({ status: 200, json: {} }));
    await expect(auth.confirmEmailChange({ token: "x".repeat(43) })).rejects.toMatchObject({ code: "invalid_link" });
  });

  it("only a recovery within the hour counts as a recovery session", () => {
    const now = Date.now();
    const at = (seconds: number) => ({ sub: USER.id, role: "authenticated", amr: [{ method: "recovery", timestamp: seconds }] });
    expect(isRecoverySession(at(Math.floor(now / 1000) - 60), now)).toBe(true);
    expect(isRecoverySession(at(Math.floor(now / 1000) - 3_700), now)).toBe(false);
    expect(isRecoverySession({ sub: USER.id, amr: [{ method: "password", timestamp: Math.floor(now / 1000) }] }, now)).toBe(false);
    expect(isRecoverySession(null, now)).toBe(false);
  });

  it("the e-mail change flow is a flow of its own at the callback, with its own words", () => {
    expect(callbackFlowOf(new URLSearchParams({ flow: "email_change" }))).toBe("email_change");
    expect(emailLinkNotice("email_change", "expired")?.text).toMatch(/e-mail change link has expired/);
  });

  it("a sign-up that is refused leaves no verifier in the browser", async () => {
    const { auth, cookieOutcome } = pkceAuthWith(() => ({ status: 422, json: { code: 422, error_code: "user_already_exists", msg: "User already registered" } }));
    await expect(auth.signUp({ email: USER.email, password: "long-enough-2026", fullName: "New Customer", origin: "https://shop.example.co.za" })).rejects.toMatchObject({ code: "email_in_use" });
    const outcome = cookieOutcome();
    expect(verifierNames(outcome)).toHaveLength(3);
    for (const name of verifierNames(outcome)) expect(outcome.get(name)?.value, name).toBeNull();
  });

  it("a sign-up signed in at once (confirmations off) keeps no verifier either", async () => {
    const session = { access_token: "a.b.c", refresh_token: "r", token_type: "bearer", expires_in: 3600, expires_at: 4102444800, user: USER };
    const { auth, cookieOutcome } = pkceAuthWith(() => ({ status: 200, json: session }));
    expect((await auth.signUp({ email: USER.email, password: "long-enough-2026", fullName: "New Customer", origin: "https://shop.example.co.za" })).signedIn).toBe(true);
    const outcome = cookieOutcome();
    for (const name of verifierNames(outcome)) expect(outcome.get(name)?.value, name).toBeNull();
    expect(outcome.get(STORAGE_KEY)?.value).toMatch(/^base64-/);
  });

  it("Google's redirect names the Google flow and where the customer was going", async () => {
    const { auth } = pkceAuthWith(() => ({ status: 200, json: {} }));
    const url = new URL(await auth.googleSignInUrl({ origin: "https://shop.example.co.za", next: "/cart" }));
    expect(url.pathname).toBe("/auth/v1/authorize");
    expect(url.searchParams.get("redirect_to")).toBe("https://shop.example.co.za/auth/callback?flow=google&next=%2Fcart");
  });

  it("the resent confirmation comes back as a sign-up too", async () => {
    const { auth, seen } = pkceAuthWith(() => ({ status: 200, json: {} }));
    await auth.resendConfirmation({ email: USER.email, origin: "https://shop.example.co.za" });
    const resend = seen.find((call) => call.url.pathname.endsWith("/resend"));
    expect(resend?.url.searchParams.get("redirect_to")).toBe("https://shop.example.co.za/auth/callback?flow=signup&next=%2Fproducts");
  });

  it("recognises only code verifier cookies (and their chunks) of this project as verifiers", () => {
    for (const name of [`${STORAGE_KEY}-code-verifier`, `${STORAGE_KEY}-code-verifier.0`, `${STORAGE_KEY}-flows-code-verifier`, `${STORAGE_KEY}-flow-0123abcd-code-verifier.1`]) {
      expect(isCodeVerifierCookie(name, STORAGE_KEY), name).toBe(true);
    }
    for (const name of [STORAGE_KEY, `${STORAGE_KEY}.0`, "sb-other-auth-token-code-verifier", `${STORAGE_KEY}-code-verifier.x`, "shop-session"]) {
      expect(isCodeVerifierCookie(name, STORAGE_KEY), name).toBe(false);
    }
    expect(supabaseStorageKey("https://project.supabase.co")).toBe(STORAGE_KEY);
  });
});

describe("the callback of an e-mail change (issue 34)", () => {
  it("the first of secure e-mail change's two links (no code, no error) goes on to the profile, asking Auth nothing", async () => {
    const { finishAuthCallback } = await import("@/server/auth/auth-callback");
    let asked = false;
    const auth = { completeOAuth: async () => { asked = true; throw new AuthError("oauth_failed", "x"); } } as unknown as Parameters<typeof finishAuthCallback>[0]["auth"];
    const target = await finishAuthCallback({ auth, origin: "https://shop.example.co.za", searchParams: new URLSearchParams({ flow: "email_change", next: "/profile" }) });
    expect(target).toBe("/profile");
    expect(asked).toBe(false);
    const failed = await finishAuthCallback({
      auth,
      origin: "https://shop.example.co.za",
      searchParams: new URLSearchParams({ flow: "email_change", next: "/profile", error: "access_denied", error_code: "otp_expired" }),
    });
    expect(failed).toBe("/auth/signin?error=email_change&reason=expired&next=%2Fprofile");
  });
});
