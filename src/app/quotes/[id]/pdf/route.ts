import { TRPCError } from "@trpc/server";
import { getHTTPStatusCodeFromError } from "@trpc/server/http";
import type { NextRequest } from "next/server";
import { signInHref } from "@/lib/sign-in-paths";
import { createCaller } from "@/server/api/root";
import { createTRPCContext } from "@/server/api/trpc";
import { seeOther } from "@/server/http/redirect";
import { headerCookieJar } from "@/server/ports/cookies";

/**
 * A sent quote version as a PDF (docs/quotes.md), through quotes.pdf (its guard and RLS: the
 * customer's own, or any for admins); a visitor is sent to sign in first and brought back.
 */
export async function GET(request: NextRequest, { params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const ctx = await createTRPCContext({ headers: request.headers, cookies: headerCookieJar(request.headers) });
  if (!ctx.user) return seeOther(signInHref(`/quotes/${encodeURIComponent(id)}/pdf`));
  try {
    const { fileName, pdf } = await createCaller(ctx).quotes.pdf({ quoteId: id });
    return new Response(new Uint8Array(pdf), {
      headers: {
        "content-type": "application/pdf",
        "content-disposition": `attachment; filename="${fileName}"`,
        "cache-control": "private, no-store",
        "x-content-type-options": "nosniff",
      },
    });
  } catch (error) {
    if (!(error instanceof TRPCError)) throw error;
    // A malformed id is as unknown as anyone else's quote.
    const status = error.code === "BAD_REQUEST" ? 404 : getHTTPStatusCodeFromError(error);
    return new Response(error.message, { status, headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" } });
  }
}
