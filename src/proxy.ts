import { NextResponse, type NextRequest } from "next/server";
import { env, runMode } from "@/env";
import { ownOrigin, replay, visitorPage, visitorPageKey } from "@/server/http/visitor-pages";
import { refreshSession } from "@/server/platform/proxy";
import type { CookieJar } from "@/server/ports/cookies";
import { contentSecurityPolicy } from "@/server/security/http-headers";

/**
 * Before pages render: keeps sessions fresh (Server Components cannot set cookies; the platform
 * knows how in each run mode), gives each page its Content-Security-Policy with a fresh nonce,
 * which Next.js puts on its own scripts, and serves visitors' storefront pages from their kept
 * HTML (src/server/http/visitor-pages.ts). Authorisation is not decided here: pages,
 * procedures and RLS do that.
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
  const written: Parameters<CookieJar["set"]>[] = [];
  const jar: CookieJar = {
    getAll: () => request.cookies.getAll(),
    get: (name) => request.cookies.get(name)?.value,
    set(name, value, options) {
      // The page about to render sees the new value; the browser gets it with the response.
      request.cookies.set(name, value);
      written.push([name, value, options]);
    },
  };
  await refreshSession(jar);
  if (written.length > 0) {
    response = forward();
    for (const [name, value, options] of written) response.cookies.set({ name, value, ...options });
  }
  return response;
}

export const config = {
  // Pages and the API; not static assets or the shop's images.
  matcher: ["/((?!_next/static|_next/image|favicon.ico|icon.svg|catalogue/|files/|robots.txt|sitemap.xml).*)"],
};
