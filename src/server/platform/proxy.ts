import { env, runMode } from "@/env";
import { sessionCookieOptions, type CookieJar } from "@/server/ports/cookies";
import { needsRenewal, SESSION_COOKIE, signSessionToken, verifySessionToken } from "./adapters/local/session-token";
import { supabaseServerClient } from "./adapters/supabase/supabase-auth";
import { localSigningSecret, supabaseConfig } from "./process-config";

/*
 * What the proxy needs from the platform, apart from the rest of it: the proxy is its own bundle
 * and must not pull in the database.
 */

/**
 * The proxy's session step, before pages render (Server Components cannot set cookies):
 * Supabase mode refreshes the Supabase session as @supabase/ssr requires (getClaims right
 * away); the local modes re-issue a session token that is more than a day old. `cookies` writes
 * to both the request (for the page about to render) and the response.
 */
export async function refreshSession(cookies: CookieJar): Promise<void> {
  if (runMode() === "supabase") {
    await supabaseServerClient(supabaseConfig(), cookies).auth.getClaims();
    return;
  }
  const token = cookies.get(SESSION_COOKIE);
  if (!token) return;
  const secret = localSigningSecret();
  const claims = await verifySessionToken(secret, token);
  if (!claims || !needsRenewal(claims)) return;
  const renewed = await signSessionToken(secret, {
    userId: claims.sub,
    email: claims.email,
    sessionId: claims.session_id,
    userMetadata: claims.user_metadata,
    notAfter: claims.not_after,
  });
  cookies.set(SESSION_COOKIE, renewed.token, sessionCookieOptions(renewed.maxAge, env.NODE_ENV === "production"));
}

