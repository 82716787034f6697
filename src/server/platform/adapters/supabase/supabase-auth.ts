import { createServerClient } from "@supabase/ssr";
import { createClient, type SupabaseClient } from "@supabase/supabase-js";
import { messages } from "@/lib/messages";
import { AuthError, type AuthPort, type AuthUser } from "@/server/ports/auth";
import type { CookieJar, CookieOptions } from "@/server/ports/cookies";

export interface SupabaseAuthConfig {
  url: string;
  anonKey: string;
  /** Needed only to delete accounts (the admin API); never sent to a browser. */
  serviceRoleKey?: string;
}

/** A per-request Supabase client whose session lives in this request's cookies. */
export function supabaseServerClient(config: SupabaseAuthConfig, cookies: CookieJar) {
  return createServerClient(config.url, config.anonKey, {
    cookies: {
      getAll: () => cookies.getAll(),
      setAll(list) {
        for (const { name, value, options } of list) cookies.set(name, value, options as CookieOptions);
      },
    },
  });
}

/** Turns verified JWT claims into the user the app works with. */
export function userFromClaims(claims: Record<string, unknown> | null | undefined): AuthUser | null {
  if (!claims || typeof claims.sub !== "string" || claims.role !== "authenticated") return null;
  return {
    id: claims.sub,
    email: typeof claims.email === "string" && claims.email ? claims.email : null,
    userMetadata: (claims.user_metadata ?? {}) as Record<string, unknown>,
  };
}

/** Supabase Auth's sign-up refusals, in the spec's words (§8). */
export function signUpError(error: { code?: string; message: string; status?: number }): AuthError {
  const code = error.code ?? "";
  if (code === "user_already_exists" || code === "email_exists" || /already registered/i.test(error.message)) {
    return new AuthError("email_in_use", messages.auth.emailInUse);
  }
  if (code === "weak_password" || /password should be at least/i.test(error.message)) {
    return new AuthError("weak_password", messages.auth.weakPassword);
  }
  return new AuthError("provider_error", messages.auth.signUpFailed);
}

/** Where a confirmation link lands: the callback signs the new customer in and sends them shopping. */
function confirmationRedirect(origin: string): string {
  return `${origin}/auth/callback?next=${encodeURIComponent("/products")}`;
}

/** Supabase mode's auth (ARCHITECTURE §2): @supabase/ssr with the session in cookies. */
export function createSupabaseAuth(
  config: SupabaseAuthConfig,
  cookies: CookieJar,
  supabase: SupabaseClient = supabaseServerClient(config, cookies),
): AuthPort {

  return {
    provider: "supabase",

    async currentUser() {
      // getClaims() verifies the token (never trust getSession() on the server).
      const { data, error } = await supabase.auth.getClaims();
      if (error || !data) return null;
      return userFromClaims(data.claims as Record<string, unknown>);
    },

    async signIn({ email, password }) {
      const { data, error } = await supabase.auth.signInWithPassword({ email, password });
      if (error?.code === "email_not_confirmed") throw new AuthError("email_not_confirmed", messages.auth.emailNotConfirmed);
      if (error || !data.user) {
        throw new AuthError(error?.status === 429 ? "rate_limited" : "invalid_credentials", error?.message ?? messages.auth.invalidCredentials);
      }
      return { id: data.user.id, email: data.user.email ?? null, userMetadata: data.user.user_metadata ?? {} };
    },

    async signUp({ email, password, fullName, origin }) {
      const { data, error } = await supabase.auth.signUp({
        email,
        password,
        options: { data: { full_name: fullName }, emailRedirectTo: confirmationRedirect(origin) },
      });
      if (error) throw signUpError(error);
      // With email confirmation on, Supabase answers an existing address with a user with no identities.
      if (!data.user || data.user.identities?.length === 0) throw new AuthError("email_in_use", messages.auth.emailInUse);
      const user = { id: data.user.id, email: data.user.email ?? null, userMetadata: data.user.user_metadata ?? {} };
      // No session yet: the project confirms e-mail addresses first.
      return { user, signedIn: data.session !== null };
    },

    async resendConfirmation({ email, origin }) {
      const { error } = await supabase.auth.resend({ type: "signup", email, options: { emailRedirectTo: confirmationRedirect(origin) } });
      if (error?.status === 429) throw new AuthError("rate_limited", messages.auth.resendLimited);
      // Any other refusal (no such account, already confirmed) is not the visitor's business.
    },

    async signOut() {
      await supabase.auth.signOut();
    },

    async googleSignInUrl({ origin, next }) {
      const redirectTo = `${origin}/auth/callback?next=${encodeURIComponent(next)}`;
      const { data, error } = await supabase.auth.signInWithOAuth({
        provider: "google",
        options: { redirectTo, skipBrowserRedirect: true },
      });
      if (error || !data.url) throw new AuthError("google_not_configured", messages.auth.googleNotConfigured);
      return data.url;
    },

    async completeOAuth({ searchParams }) {
      const code = searchParams.get("code");
      if (!code) throw new AuthError("oauth_failed", messages.auth.googleFailed);
      const { data, error } = await supabase.auth.exchangeCodeForSession(code);
      if (error || !data.user) throw new AuthError("oauth_failed", messages.auth.googleFailed);
      return { id: data.user.id, email: data.user.email ?? null, userMetadata: data.user.user_metadata ?? {} };
    },

    async deleteUser(userId) {
      if (!config.serviceRoleKey) throw new Error("Deleting accounts in Supabase mode needs SUPABASE_SERVICE_ROLE_KEY.");
      const admin = createClient(config.url, config.serviceRoleKey, { auth: { autoRefreshToken: false, persistSession: false } });
      const { error } = await admin.auth.admin.deleteUser(userId);
      if (error) throw error;
      await supabase.auth.signOut().catch(() => {});
    },
  };
}
