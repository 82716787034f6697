import { TRPCError } from "@trpc/server";
import { getHTTPStatusCodeFromError } from "@trpc/server/http";
import type { NextRequest } from "next/server";
import { signInHref } from "@/lib/sign-in-paths";
import { createCaller } from "@/server/api/root";
import { createTRPCContext } from "@/server/api/trpc";
import { seeOther } from "@/server/http/redirect";
import { headerCookieJar } from "@/server/ports/cookies";

/**
 * "Download my data" (POPIA): the signed-in customer's own data as a JSON file, through the
 * profile.exportData procedure (its guard, rate limit and RLS); a visitor is sent to sign in.
 */
export async function GET(request: NextRequest) {
  const ctx = await createTRPCContext({ headers: request.headers, cookies: headerCookieJar(request.headers) });
  if (!ctx.user) return seeOther(signInHref("/profile"));
  try {
    const data = await createCaller(ctx).profile.exportData();
    const day = data.exportedAt.slice(0, 10);
    return new Response(`${JSON.stringify(data, null, 2)}\n`, {
      headers: {
        "content-type": "application/json; charset=utf-8",
        "content-disposition": `attachment; filename="my-data-${day}.json"`,
        "cache-control": "private, no-store",
        "x-content-type-options": "nosniff",
      },
    });
  } catch (error) {
    if (!(error instanceof TRPCError)) throw error;
    return new Response(error.message, { status: getHTTPStatusCodeFromError(error), headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" } });
  }
}
