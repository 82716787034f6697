import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import type { NextRequest } from "next/server";
import { appRouter } from "@/server/api/root";
import { createTRPCContext } from "@/server/api/trpc";
import { headerCookieJar } from "@/server/ports/cookies";

function handler(req: NextRequest) {
  return fetchRequestHandler({
    endpoint: "/api/trpc",
    req,
    router: appRouter,
    createContext: ({ resHeaders }) =>
      createTRPCContext({ headers: req.headers, cookies: headerCookieJar(req.headers, resHeaders) }),
    onError({ path, error }) {
      // The client sees the spec's message; the server log keeps the cause.
      if (error.code === "INTERNAL_SERVER_ERROR") {
        console.error(`[trpc] ${path ?? "<no-path>"} failed:`, error.cause ?? error);
      }
    },
  });
}

export { handler as GET, handler as POST };
