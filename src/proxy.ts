import { NextResponse, type NextRequest } from "next/server";
import { env, runMode } from "@/env";
import { keptAnswer, keptAnswerKey, replayAnswer } from "@/server/http/kept-answers";
import { replaySignedIn, signedInPage, signedInPageKey } from "@/server/http/signed-in-pages";
import { ownOrigin, replay, visitorPage, visitorPageKey } from "@/server/http/visitor-pages";
import { refreshSession } from "@/server/platform/proxy";
import { stringifySetCookie } from "cookie";
import type { CookieJar } from "@/server/ports/cookies";
import { contentSecurityPolicy } from "@/server/security/http-headers";

/**
 * Before pages render: keeps sessions fresh (Server Components cannot set cookies; the platform
 * knows how in each run mode), gives each page its Content-Security-Policy with a fresh nonce,
 * which Next.js puts on its own scripts, and serves storefront pages from their kept HTML:
 * visitors' as they are (src/server/http/visitor-pages.ts), signed-in users' from their role's
 * template with their own values filled in (src/server/http/signed-in-pages.ts), and the
 * catalogue's public API answers (src/server/http/kept-answers.ts). Authorisation is not
 * decided here: pages, procedures and RLS do that.
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

  const production = env.NODE_ENV === "production";
  const answerKey = production ? keptAnswerKey(request) : null;
  const answerOrigin = answerKey ? ownOrigin() : null;
  if (answerKey && answerOrigin) {
    const answer = await keptAnswer(answerKey, answerOrigin);
    if (answer) return replayAnswer(answer);
  }

  const pageKey = production ? visitorPageKey(request) : null;
  const origin = pageKey ? ownOrigin() : null;
  if (pageKey && origin) {
    const page = await visitorPage(pageKey, origin);
    if (page) return replay(page, nonce, csp);
  }

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

  const signedInKey = production ? signedInPageKey(request) : null;
  const selfOrigin = signedInKey ? ownOrigin() : null;
  if (signedInKey && selfOrigin) {
    const served = await signedInPage(signedInKey, request.cookies.toString(), selfOrigin);
    const response = served ? replaySignedIn(served.page, served.viewer.data, nonce, csp) : null;
    if (response) {
      for (const [name, value, options] of written) response.headers.append("set-cookie", stringifySetCookie(name, value, { path: "/", ...options }));
      return response;
    }
  }

  const response = forward();
  for (const [name, value, options] of written) response.cookies.set({ name, value, ...options });
  return response;
}

export const config = {
  // Pages and the catalogue's API answers (kept); not static assets or the shop's images, nor
  // the rest of the API: a procedure's context checks and renews the session itself, and a JSON
  // answer needs no page policy, so passing through here only cost each call ~0.5 ms.
  matcher: ["/((?!_next/static|_next/image|favicon.ico|icon.svg|catalogue/|files/|robots.txt|sitemap.xml|api/trpc/(?!catalogue\\.)).*)"],
};
