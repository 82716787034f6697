import { createTRPCClient, httpLink } from "@trpc/client";
import superjson from "superjson";
import type { AppRouter } from "@/server/api/root";

/**
 * A plain tRPC client for the few calls a visitor's pages make (the contact form). Those pages
 * import it on demand (`await import("@/trpc/vanilla")`), so the storefront's first load ships
 * neither this client nor React Query; signed-in views use the hooks in `./react`.
 */
export const shopClient = createTRPCClient<AppRouter>({
  links: [httpLink({ url: "/api/trpc", transformer: superjson })],
});
