import { cookies } from "next/headers";
import type { CookieJar } from "@/server/ports/cookies";

/**
 * The cookie jar of a Server Component, Server Action or route handler. Server Components
 * cannot set cookies; there a write is dropped (the proxy refreshes sessions instead).
 */
export async function nextCookieJar(): Promise<CookieJar> {
  const store = await cookies();
  return {
    getAll: () => store.getAll().map(({ name, value }) => ({ name, value })),
    get: (name) => store.get(name)?.value,
    set(name, value, options) {
      try {
        store.set({ name, value, ...options });
      } catch {
        // Rendering a Server Component: the response has started.
      }
    },
  };
}
