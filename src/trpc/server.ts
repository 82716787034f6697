import "server-only";

import { createHydrationHelpers } from "@trpc/react-query/rsc";
import { headers } from "next/headers";
import { cache } from "react";
import { createCaller, type AppRouter } from "@/server/api/root";
import { createTRPCContext } from "@/server/api/trpc";
import { nextCookieJar } from "@/server/auth/request-cookies";
import { createQueryClient } from "./query-client";

/** One context per React Server Components request: the caller is resolved once. */
export const getRequestContext = cache(async () => {
  const heads = new Headers(await headers());
  heads.set("x-trpc-source", "rsc");
  return createTRPCContext({ headers: heads, cookies: await nextCookieJar() });
});

const getQueryClient = cache(createQueryClient);
const caller = createCaller(getRequestContext);

/** The RSC caller (`await api.catalogue.list()`) and the hydration boundary for client queries. */
export const { trpc: api, HydrateClient } = createHydrationHelpers<AppRouter>(caller, getQueryClient);
