"use client";

import { QueryClientProvider, type QueryClient } from "@tanstack/react-query";
import { httpBatchStreamLink, httpLink, httpSubscriptionLink, isNonJsonSerializable, splitLink } from "@trpc/client";
import { createTRPCReact } from "@trpc/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import { useState } from "react";
import superjson from "superjson";
import type { AppRouter } from "@/server/api/root";
import { developmentCallLog } from "./call-logger";
import { createQueryClient } from "./query-client";

let browserQueryClient: QueryClient | undefined;

function getQueryClient() {
  // On the server, a new client per request; in the browser, one for the page's lifetime.
  if (typeof window === "undefined") return createQueryClient();
  return (browserQueryClient ??= createQueryClient());
}

/** The typed tRPC hooks for client components. */
export const api = createTRPCReact<AppRouter>();

/** What each procedure answers, for components that receive it as a prop. */
export type RouterOutputs = inferRouterOutputs<AppRouter>;

export function TRPCReactProvider({ children }: { children: React.ReactNode }) {
  const queryClient = getQueryClient();
  const [trpcClient] = useState(() =>
    api.createClient({
      links: [
        ...developmentCallLog<AppRouter>(),
        splitLink({
          // Live updates arrive over server-sent events.
          condition: (op) => op.type === "subscription",
          true: httpSubscriptionLink({ transformer: superjson, url: "/api/trpc" }),
          false: splitLink({
            // Uploads (FormData) go as they are; the answer still comes back through superjson.
            condition: (op) => isNonJsonSerializable(op.input),
            true: httpLink({ url: "/api/trpc", transformer: { serialize: (data: unknown) => data, deserialize: superjson.deserialize } }),
            false: splitLink({
              // Mutations may set cookies (sign-in, sign-out), which a streamed response cannot do
              // once it has started: they go unstreamed. Queries stream in batches.
              condition: (op) => op.type === "mutation",
              true: httpLink({ transformer: superjson, url: "/api/trpc" }),
              false: httpBatchStreamLink({ transformer: superjson, url: "/api/trpc" }),
            }),
          }),
        }),
      ],
    }),
  );

  return (
    <QueryClientProvider client={queryClient}>
      <api.Provider client={trpcClient} queryClient={queryClient}>
        {children}
      </api.Provider>
    </QueryClientProvider>
  );
}
