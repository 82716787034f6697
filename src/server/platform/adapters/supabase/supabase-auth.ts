import { createServerClient } from "@supabase/ssr";
import { createClient, type SupabaseClient } from "@supabase/supabase-js";
import { ACCOUNT_LINK_TTL_MS } from "@/lib/constants";
import { accountMessages, messages } from "@/lib/messages";
import { callbackUrl, LinkOpenedElsewhereError } from "@/server/auth/callback-flow";
import { AuthError, type AuthPort, type AuthUser } from "@/server/ports/auth";
import type { CookieJar, CookieOptions } from "@/server/ports/cookies";

export interface SupabaseAuthConfig {
  url: string;
  anonKey: string;
  /** Needed only to delete accounts (the admin API); never sent to a browser. */
  serviceRoleKey?: string;
  /** Supabase's HTTP endpoints; replaced in tests. */
  fetch?: typeof fetch;
}

/**
 * How long a PKCE code verifier cookie may live. It is needed until the link it belongs to is
 * used: a confirmation link lives at most 24 hours (Supabase Auth's mailer OTP expiry cannot be
 * set longer), a Google round trip minutes. @supabase/ssr gives every cookie 400 days and
 * applies its own Max-Age after any `cookieOptions`, so the bound is set where cookies are written.
 */
export const CODE_VERIFIER_MAX_AGE = 24 * 60 * 60;

/** supabase-js's default storage key, which names the auth cookies: `sb-<project ref>-auth-token`. */
export function supabaseStorageKey(projectUrl: string): string {
  return `sb-${new URL(projectUrl).hostname.split(".")[0]}-auth-token`;
}

/**
 * Whether a cookie holds (a chunk of) a PKCE code verifier: auth-js keeps three per pending
 * flow: `<key>-code-verifier` (the one an exchange without a flow id reads),
 * `<key>-flow-<id>-code-verifier` and the index `<key>-flows-code-verifier`; @supabase/ssr splits
 * a long value into `<name>.0`, `<name>.1`...
 */
export function isCodeVerifierCookie(name: string, storageKey: string): boolean {
  return name.startsWith(`${storageKey}-`) && /-code-verifier(?:\.(?:0|[1-9]\d*))?$/.test(name);
}

/** Deletes every code verifier cookie the request carries (all chunks), as @supabase/ssr set them (path /). */
function clearCodeVerifiers(cookies: CookieJar, storageKey: string): void {
  for (const { name } of cookies.getAll()) {
    if (isCodeVerifierCookie(name, storageKey)) cookies.set(name, "", { path: "/", sameSite: "lax", maxAge: 0 });
  }
}

/** A per-request Supabase client whose session lives in this request's cookies. */
export function supabaseServerClient(config: SupabaseAuthConfig, cookies: CookieJar) {
  const storageKey = supabaseStorageKey(config.url);
  return createServerClient(config.url, config.anonKey, {
    ...(config.fetch ? { global: { fetch: config.fetch } } : {}),
    cookies: {
      getAll: () => cookies.getAll(),
      setAll(list) {
        for (const { name, value, options } of list) {
          const bounded = value && isCodeVerifierCookie(name, storageKey) ? { ...options, maxAge: Math.min(options.maxAge ?? CODE_VERIFIER_MAX_AGE, CODE_VERIFIER_MAX_AGE) } : options;
          cookies.set(name, value, bounded as CookieOptions);
        }
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
  return callbackUrl(origin, "signup", "/products");
}

/**
 * Whether a session's claims come from a password recovery link opened within the hour: Supabase
 * Auth names how the session began in `amr` ("recovery" for a recovery link's code exchange).
 */
export function isRecoverySession(claims: Record<string, unknown> | null | undefined, now = Date.now()): boolean {
  const amr = Array.isArray(claims?.amr) ? (claims.amr as { method?: unknown; timestamp?: unknown }[]) : [];
  return amr.some((entry) => entry.method === "recovery" && typeof entry.timestamp === "number" && now - entry.timestamp * 1000 < ACCOUNT_LINK_TTL_MS);
}

/** Supabase Auth's refusals of a new password, in the shop's words. */
function newPasswordError(error: { code?: string; status?: number }, fallback: string): AuthError {
  if (error.code === "weak_password") return new AuthError("weak_password", messages.auth.weakPassword);
  if (error.status === 429) return new AuthError("rate_limited", messages.auth.resendLimited);
  return new AuthError("provider_error", fallback);
}

/** Supabase mode's auth (docs/architecture.md#run-modes-and-the-one-data-path): @supabase/ssr with the session in cookies. */
export function createSupabaseAuth(
  config: SupabaseAuthConfig,
  cookies: CookieJar,
  supabase: SupabaseClient = supabaseServerClient(config, cookies),
): AuthPort {
  // Verifiers nothing will read again (a flow that failed to start, a finished exchange) go at once.
  const clearVerifiers = () => clearCodeVerifiers(cookies, supabaseStorageKey(config.url));

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
      // A session now (confirmations off) or no account: the verifier will never be exchanged.
      // Otherwise it waits, for at most CODE_VERIFIER_MAX_AGE, for the confirmation link.
      if (error || data.session) clearVerifiers();
      if (error) throw signUpError(error);
      // With email confirmation on, Supabase answers an existing address with a user with no identities.
      if (!data.user || data.user.identities?.length === 0) throw new AuthError("email_in_use", messages.auth.emailInUse);
      const user = { id: data.user.id, email: data.user.email ?? null, userMetadata: data.user.user_metadata ?? {} };
      // No session yet: the project confirms e-mail addresses first.
      return { user, signedIn: data.session !== null };
    },

    async resendConfirmation({ email, origin }) {
      const { error } = await supabase.auth.resend({ type: "signup", email, options: { emailRedirectTo: confirmationRedirect(origin) } });
      if (error) clearVerifiers();
      if (error?.status === 429) throw new AuthError("rate_limited", messages.auth.resendLimited);
      // Any other refusal (no such account, already confirmed) is not the visitor's business.
    },

    async signOut() {
      await supabase.auth.signOut();
    },

    async googleSignInUrl({ origin, next }) {
      const { data, error } = await supabase.auth.signInWithOAuth({
        provider: "google",
        options: { redirectTo: callbackUrl(origin, "google", next), skipBrowserRedirect: true },
      });
      if (error || !data.url) {
        clearVerifiers();
        throw new AuthError("google_not_configured", messages.auth.googleNotConfigured);
      }
      return data.url;
    },

    /** Every flow's return (Google, a confirmation link): the PKCE code exchange. */
    // Supabase Auth carries `next` in the callback URL it was given; nothing is kept here.
    pendingDestination: () => undefined,

    async completeOAuth({ searchParams }) {
      try {
        const code = searchParams.get("code");
        if (!code) throw new AuthError("oauth_failed", messages.auth.googleFailed);
        // Where auth-js names the flow in the link it asked for (`sb_flow_id`, with its experimental
        // appendPkceFlowIdToRedirects), that flow's own verifier; otherwise the newest one.
        const flowId = searchParams.get("sb_flow_id");
        const { data, error } = await supabase.auth.exchangeCodeForSession(code, flowId ? { flowId } : undefined);
        // auth-js stops before asking Auth: this browser never started the flow.
        if (error?.code === "pkce_code_verifier_not_found") throw new LinkOpenedElsewhereError();
        if (error || !data.user) throw new AuthError("oauth_failed", messages.auth.googleFailed);
        return { id: data.user.id, email: data.user.email ?? null, userMetadata: data.user.user_metadata ?? {} };
      } finally {
        // A code is single-use, so its verifier is spent whatever Auth answered. auth-js removes only
        // the copy it read, and @supabase/ssr writes even that only with a new session; the flow's
        // own slot and the index would stay in the browser for 400 days.
        clearVerifiers();
      }
    },

    async requestPasswordReset({ email, origin }) {
      // The link comes back to /auth/callback (flow "recovery"), which exchanges its code and sends the browser to set the password.
      const { error } = await supabase.auth.resetPasswordForEmail(email, { redirectTo: callbackUrl(origin, "recovery", "/auth/reset") });
      if (error) clearVerifiers();
      if (error?.status === 429) throw new AuthError("rate_limited", accountMessages.resetLimited);
      // Any other refusal is not the visitor's business: the answer is the same for every address.
    },

    async resetPassword({ password }) {
      const { data } = await supabase.auth.getClaims();
      const claims = data?.claims as Record<string, unknown> | undefined;
      if (!userFromClaims(claims) || !isRecoverySession(claims)) throw new AuthError("invalid_link", accountMessages.resetLinkInvalid);
      const { data: updated, error } = await supabase.auth.updateUser({ password });
      if (error || !updated.user) throw newPasswordError(error ?? {}, accountMessages.resetFailed);
      // Whoever else holds a session of this account is out; this browser stays signed in.
      await supabase.auth.signOut({ scope: "others" });
      return { id: updated.user.id, email: updated.user.email ?? null, userMetadata: updated.user.user_metadata ?? {} };
    },

    async changePassword({ currentPassword, newPassword }) {
      const { data } = await supabase.auth.getClaims();
      const user = userFromClaims(data?.claims as Record<string, unknown> | undefined);
      if (!user?.email) throw new AuthError("invalid_credentials", messages.auth.signInRequired);
      // The current password is checked by signing in with it on a client that keeps nothing,
      // whose session is ended at once; the browser's own session is untouched.
      const checker = createClient(config.url, config.anonKey, {
        auth: { autoRefreshToken: false, persistSession: false, detectSessionInUrl: false },
        ...(config.fetch ? { global: { fetch: config.fetch } } : {}),
      });
      const checked = await checker.auth.signInWithPassword({ email: user.email, password: currentPassword });
      if (checked.error || !checked.data.session) {
        throw checked.error?.status === 429
          ? new AuthError("rate_limited", messages.auth.tooManyAttempts(15))
          : new AuthError("wrong_current_password", accountMessages.currentPasswordWrong);
      }
      await checker.auth.signOut({ scope: "local" }).catch(() => {});
      const { error } = await supabase.auth.updateUser({ password: newPassword });
      if (error) throw newPasswordError(error, accountMessages.changePasswordFailed);
      await supabase.auth.signOut({ scope: "others" });
    },

    async requestEmailChange({ newEmail, origin }) {
      // Supabase Auth mails the new address a link (and, with secure e-mail change, the old one too).
      const { error } = await supabase.auth.updateUser({ email: newEmail }, { emailRedirectTo: callbackUrl(origin, "email_change", "/profile") });
      if (!error) return;
      clearVerifiers();
      if (error.code === "email_exists" || error.code === "user_already_exists") throw new AuthError("email_in_use", messages.auth.emailInUse);
      if (error.status === 429) throw new AuthError("rate_limited", messages.auth.resendLimited);
      throw new AuthError("provider_error", accountMessages.emailChangeFailed);
    },

    async confirmEmailChange() {
      // Supabase Auth's own link confirms the change (/auth/callback, flow "email_change").
      throw new AuthError("invalid_link", accountMessages.emailChangeLinkInvalid);
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
