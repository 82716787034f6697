import type { NextRequest } from "next/server";
import { finishAuthCallback } from "@/server/auth/auth-callback";
import { publicOrigin, seeOther } from "@/server/http/redirect";
import { requestServices } from "@/server/platform/request-services";
import { headerCookieJar } from "@/server/ports/cookies";

/**
 * Where Supabase Auth (a confirmation link, Google) or, in the local modes, Google sends the
 * browser back. The answer is a relative 303, so it stays on the host the browser used.
 */
export async function GET(request: NextRequest) {
  const responseHeaders = new Headers();
  const cookies = headerCookieJar(request.headers, responseHeaders);
  const { auth } = await requestServices(cookies, request.headers);
  const target = await finishAuthCallback({
    auth,
    origin: publicOrigin(request.headers),
    searchParams: request.nextUrl.searchParams,
    pendingNext: auth.pendingDestination(),
  });
  return seeOther(target, responseHeaders);
}
