import "server-only";

import { headers } from "next/headers";
import { cache } from "react";
import { createTRPCContext } from "@/server/api/trpc";
import { nextCookieJar } from "@/server/auth/request-cookies";

/**
 * One tRPC context per React Server Components request: the caller is resolved once. Kept apart
 * from `./server` (the caller and React Query's hydration boundary), so layouts that only need
 * the signed-in user do not pull a client component into every page.
 */
export const getRequestContext = cache(async () => {
  const heads = new Headers(await headers());
  heads.set("x-trpc-source", "rsc");
  return createTRPCContext({ headers: heads, cookies: await nextCookieJar() });
});
