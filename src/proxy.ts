import { NextResponse, type NextRequest } from "next/server";
import { env, runMode } from "@/env";
import { isUnknownProduct, NOT_FOUND_HEADER, productPageLoad, unmatchedPath } from "@/server/catalogue/unknown-product-page";
import { backForwardKeepable, serveKept } from "@/server/kept-pages/serve";
import { refreshSession } from "@/server/platform/proxy";
import { stringifySetCookie } from "cookie";
import type { CookieJar } from "@/server/ports/cookies";
import { contentSecurityPolicy } from "@/server/security/http-headers";
import { VISITOR_PAGE_CACHE_CONTROL } from "@/server/security/page-caching";

/**
 * Before pages render: keeps sessions fresh (Server Components cannot set cookies; the platform
 * knows how in each run mode), gives each page its Content-Security-Policy with a fresh nonce,
 * which Next.js puts on its own scripts, and answers from the kept pages where it can
 * (src/server/kept-pages/serve.ts: storefront pages and the catalogue's public answers, with
 * this response's nonce). Authorisation is not decided here: pages, procedures and RLS do that.
 */
export async function proxy(request: NextRequest) {
  const nonce = btoa(crypto.randomUUID());
  const csp = contentSecurityPolicy(nonce, {
    dev: env.NODE_ENV === "development",
    supabaseUrl: runMode() === "supabase" ? env.NEXT_PUBLIC_SUPABASE_URL : undefined,
    paymentPageUrl: env.PAYFAST_URL,
  });

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
  // Once per request, and only when needed: a visitor's kept page is served without it.
  let renewal: Promise<void> | undefined;
  const renewSession = () => (renewal ??= refreshSession(jar));

  const kept = await serveKept(request, { nonce, policy: csp, renewSession });
  if (kept) {
    for (const [name, value, options] of written) kept.headers.append("set-cookie", stringifySetCookie(name, value, { path: "/", ...options }));
    return kept;
  }

  await renewSession();
  // Passes the request on with its (possibly refreshed) cookies and the policy Next reads the nonce from.
  const headers = new Headers(request.headers);
  headers.set("content-security-policy", csp);
  headers.delete(NOT_FOUND_HEADER);
  const productId = productPageLoad(request);
  const unknownProduct = productId !== null && (await isUnknownProduct(productId, selfOrigin(request)));
  if (unknownProduct) headers.set(NOT_FOUND_HEADER, "product");
  const response = unknownProduct
    ? NextResponse.rewrite(new URL(unmatchedPath(productId), request.url), { request: { headers } })
    : NextResponse.next({ request: { headers } });
  response.headers.set("content-security-policy", csp);
  // A visitor's storefront page or its client navigation's payload may be kept for Back (Next.js
  // keeps a Cache-Control set here); everything else keeps Next's `no-store`
  // (src/server/security/page-caching.ts).
  if (backForwardKeepable(request) && written.length === 0) response.headers.set("cache-control", VISITOR_PAGE_CACHE_CONTROL);
  for (const [name, value, options] of written) response.cookies.set({ name, value, ...options });
  return response;
}

/** Where this server reaches itself: its own port where it knows it (a production server), else the request's origin. */
function selfOrigin(request: NextRequest): string {
  return process.env.PORT ? `http://127.0.0.1:${process.env.PORT}` : request.nextUrl.origin;
}

export const config = {
  // Pages and the catalogue's API answers (kept); not static assets or the shop's images, nor
  // the rest of the API (a provider's webhook checks its own signature): a procedure's context checks and renews the session itself, and a JSON
  // answer needs no page policy, so passing through here only cost each call ~0.5 ms. Nor the
  // Sign Out form's post: a session renewed here would go out beside the one it ends.
  matcher: ["/((?!_next/static|_next/image|favicon.ico|icon.svg|apple-icon.png|manifest.webmanifest|icons/|catalogue/|files/|robots.txt|sitemap.xml|api/payments/|api/messaging/|auth/signout|api/trpc/(?!catalogue\\.)).*)"],
};
