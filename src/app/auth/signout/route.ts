import type { NextRequest } from "next/server";
import { messages } from "@/lib/messages";
import { seeOther } from "@/server/http/redirect";
import { requestServices } from "@/server/platform/request-services";
import { headerCookieJar } from "@/server/ports/cookies";
import { isSameOriginRequest } from "@/server/security/http-headers";
import { CLEAR_BROWSER_CACHE } from "@/server/security/page-caching";

/**
 * Sign Out as a plain form post (src/components/auth/logout-button.tsx): it works before the
 * page's scripts have run (a kept page fetches them after its first screen) and without them.
 * What the `auth.signOut` procedure does: the session ends, the browser drops what it kept of
 * the shop (Clear-Site-Data), and home loads as a new document (a relative 303). A failure to
 * end the session is only logged (spec §8); the browser still goes home.
 */
export async function POST(request: NextRequest) {
  // Only the shop's own pages may sign someone out (CSRF).
  if (!isSameOriginRequest(request.headers)) return new Response(messages.security.crossOrigin, { status: 403, headers: { "cache-control": "no-store" } });
  const responseHeaders = new Headers();
  const { auth } = await requestServices(headerCookieJar(request.headers, responseHeaders), request.headers);
  try {
    await auth.signOut();
  } catch (error) {
    console.error("Sign out failed:", error instanceof Error ? error.message : error);
  }
  const response = seeOther("/", responseHeaders);
  response.headers.set(CLEAR_BROWSER_CACHE.name, CLEAR_BROWSER_CACHE.value);
  return response;
}
