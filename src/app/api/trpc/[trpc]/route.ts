import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import type { NextRequest } from "next/server";
import { messages } from "@/lib/messages";
import { logCallError } from "@/server/http/log-call-error";
import { appRouter } from "@/server/api/root";
import { createTRPCContext } from "@/server/api/trpc";
import { headerCookieJar } from "@/server/ports/cookies";
import { isSameOriginRequest } from "@/server/security/http-headers";
import { browserCacheHeaders } from "@/server/security/page-caching";

/** A refusal in tRPC's error shape, so the shop's client shows the message like any other. */
function crossOriginRefusal() {
  const error = { message: messages.security.crossOrigin, code: -32003, data: { code: "FORBIDDEN", httpStatus: 403 } };
  return Response.json({ error: { json: error } }, { status: 403 });
}

function handler(req: NextRequest) {
  // State changes only from the shop's own pages (CSRF); reads are harmless either way.
  if (req.method !== "GET" && !isSameOriginRequest(req.headers)) return crossOriginRefusal();
  return fetchRequestHandler({
    endpoint: "/api/trpc",
    req,
    router: appRouter,
    createContext: ({ resHeaders }) =>
      createTRPCContext({ headers: req.headers, cookies: headerCookieJar(req.headers, resHeaders) }),
    // Signing out (or deleting the account) also drops every page of the shop the browser kept.
    responseMeta: (meta) => ({ headers: browserCacheHeaders(meta) }),
    onError({ path, error }) {
      // The client sees the spec's message; the server log keeps the cause (never the input).
      if (error.code === "INTERNAL_SERVER_ERROR") logCallError(path, error.cause ?? error);
    },
  });
}

export { handler as GET, handler as POST };
