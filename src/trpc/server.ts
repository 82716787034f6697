import "server-only";

import { createHydrationHelpers } from "@trpc/react-query/rsc";
import { cache } from "react";
import { createCaller, type AppRouter } from "@/server/api/root";
import { createQueryClient } from "./query-client";
import { getRequestContext } from "./request-context";

const getQueryClient = cache(createQueryClient);
const caller = createCaller(getRequestContext);

/** The RSC caller (`await api.catalogue.list()`) and the hydration boundary for client queries. */
export const { trpc: api, HydrateClient } = createHydrationHelpers<AppRouter>(caller, getQueryClient);
