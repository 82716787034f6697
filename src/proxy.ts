import { NextResponse, type NextRequest } from "next/server";
import { env, runMode } from "@/env";
import { supabaseServerClient } from "@/server/adapters/supabase/supabase-auth";
import { needsRenewal, SESSION_COOKIE, signSessionToken, verifySessionToken } from "@/server/adapters/local/session-token";
import { localSigningSecret } from "@/server/platform";
import { sessionCookieOptions, type CookieJar } from "@/server/ports/cookies";
import { contentSecurityPolicy } from "@/server/security/http-headers";
import { ownOrigin, replay, visitorPage, visitorPageKey } from "@/server/http/visitor-pages";

/**
 * Keeps sessions fresh before pages render (Server Components cannot set cookies):
 * Supabase mode refreshes the Supabase session as @supabase/ssr requires; the local modes
 * re-issue a session token that is more than a day old. Authorisation is not decided here:
 * pages, procedures and RLS do that. Also gives each page its Content-Security-Policy with a
 * fresh nonce, which Next.js puts on its own scripts, and serves visitors' storefront pages from
 * their kept HTML (src/server/http/visitor-pages.ts).
 */
export async function proxy(request: NextRequest) {
  const nonce = btoa(crypto.randomUUID());
  const csp = contentSecurityPolicy(nonce, { dev: env.NODE_ENV === "development", supabaseUrl: runMode() === "supabase" ? env.NEXT_PUBLIC_SUPABASE_URL : undefined });
  /** Passes the request on with its (possibly refreshed) cookies and the policy Next reads the nonce from. */
  const forward = () => {
    const headers = new Headers(request.headers);
    headers.set("content-security-policy", csp);
    const next = NextResponse.next({ request: { headers } });
    next.headers.set("content-security-policy", csp);
    return next;
  };

  const pageKey = env.NODE_ENV === "production" ? visitorPageKey(request) : null;
  const origin = pageKey ? ownOrigin() : null;
  if (pageKey && origin) {
    const page = await visitorPage(pageKey, origin);
    if (page) return replay(page, nonce, csp);
  }

  let response = forward();

  if (runMode() === "supabase") {
    const jar: CookieJar = {
      getAll: () => request.cookies.getAll(),
      get: (name) => request.cookies.get(name)?.value,
      set(name, value, options) {
        request.cookies.set(name, value);
        response = forward();
        response.cookies.set({ name, value, ...options });
      },
    };
    const supabase = supabaseServerClient(
      { url: env.NEXT_PUBLIC_SUPABASE_URL ?? "", anonKey: env.NEXT_PUBLIC_SUPABASE_ANON_KEY ?? "" },
      jar,
    );
    await supabase.auth.getClaims();
    return response;
  }

  const token = request.cookies.get(SESSION_COOKIE)?.value;
  if (token) {
    const secret = localSigningSecret();
    const claims = await verifySessionToken(secret, token);
    if (claims && needsRenewal(claims)) {
      const renewed = await signSessionToken(secret, {
        userId: claims.sub,
        email: claims.email,
        sessionId: claims.session_id,
        userMetadata: claims.user_metadata,
        notAfter: claims.not_after,
      });
      request.cookies.set(SESSION_COOKIE, renewed.token);
      response = forward();
      response.cookies.set({
        name: SESSION_COOKIE,
        value: renewed.token,
        ...sessionCookieOptions(renewed.maxAge, env.NODE_ENV === "production"),
      });
    }
  }
  return response;
}

export const config = {
  // Pages and the API; not static assets or the shop's images.
  matcher: ["/((?!_next/static|_next/image|favicon.ico|icon.svg|catalogue/|files/|robots.txt|sitemap.xml).*)"],
};
