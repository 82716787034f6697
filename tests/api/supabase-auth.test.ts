import { createClient } from "@supabase/supabase-js";
import { describe, expect, it } from "vitest";
import { messages } from "@/lib/messages";
import { createSupabaseAuth } from "@/server/platform/adapters/supabase/supabase-auth";
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
