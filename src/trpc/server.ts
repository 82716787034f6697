import "server-only";

import { createHydrationHelpers } from "@trpc/react-query/rsc";
import { cache } from "react";
import type { AppRouter } from "@/server/api/root";
import { caller } from "./caller";
import { createQueryClient } from "./query-client";

const getQueryClient = cache(createQueryClient);

/** Prefetching for client components (`void api.cart.list.prefetch()`) and their hydration boundary; pages that only read use ./caller. */
export const { trpc: api, HydrateClient } = createHydrationHelpers<AppRouter>(caller, getQueryClient);
