import { NextResponse, type NextRequest } from "next/server";
import { safeNextPath } from "@/server/auth/schemas";
import { googleFailureCode } from "@/server/auth/google-sign-in";
import { pendingOAuthDestination, requestServices } from "@/server/platform";
import { AuthError } from "@/server/ports/auth";
import { headerCookieJar } from "@/server/ports/cookies";

/** Where Google (through Supabase Auth, or directly in the local modes) sends the browser back. */
export async function GET(request: NextRequest) {
  const responseHeaders = new Headers();
  const cookies = headerCookieJar(request.headers, responseHeaders);
  const { auth } = await requestServices(cookies, request.headers);
  const next = safeNextPath(request.nextUrl.searchParams.get("next") ?? pendingOAuthDestination(cookies), "/products");
  const origin = request.nextUrl.origin;

  let target: URL;
  try {
    await auth.completeOAuth({ origin, searchParams: request.nextUrl.searchParams });
    target = new URL(`/auth/signin?google=success&next=${encodeURIComponent(next)}`, origin);
  } catch (error) {
    if (!(error instanceof AuthError)) console.error("[auth] OAuth callback failed:", error);
    // The sign-in page turns the code into its own text, so nothing from Google's answer is shown.
    const reason = googleFailureCode(error, request.nextUrl.searchParams.get("error"));
    target = new URL(`/auth/signin?error=google&reason=${reason}&next=${encodeURIComponent(next)}`, origin);
  }
  const response = NextResponse.redirect(target, { status: 303 });
  for (const cookie of responseHeaders.getSetCookie()) response.headers.append("set-cookie", cookie);
  return response;
}
