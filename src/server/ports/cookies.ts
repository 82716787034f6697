import { parseCookie, stringifySetCookie, type SerializeOptions } from "cookie";

export type CookieOptions = Pick<SerializeOptions, "maxAge" | "expires" | "path" | "httpOnly" | "secure" | "sameSite" | "domain">;

/** The request's cookies, and a way to set cookies on the response where there is one. */
export interface CookieJar {
  getAll(): { name: string; value: string }[];
  get(name: string): string | undefined;
  /** Sets a cookie on the response; silently ignored where the response is already streaming (RSC). */
  set(name: string, value: string, options?: CookieOptions): void;
}

/** A jar over a request's Cookie header that writes Set-Cookie to `responseHeaders` (tRPC, route handlers). */
export function headerCookieJar(requestHeaders: Headers, responseHeaders?: Headers): CookieJar {
  const current = new Map(
    Object.entries(parseCookie(requestHeaders.get("cookie") ?? "")).flatMap(([name, value]) =>
      value === undefined ? [] : [[name, value] as const],
    ),
  );
  return {
    getAll: () => [...current].map(([name, value]) => ({ name, value })),
    get: (name) => current.get(name),
    set(name, value, options = {}) {
      if (options.maxAge === 0 || value === "") current.delete(name);
      else current.set(name, value);
      responseHeaders?.append("set-cookie", stringifySetCookie(name, value, { path: "/", ...options }));
    },
  };
}

/** Attributes for the shop's own cookies: httpOnly, SameSite=Lax, Secure in production. */
export function sessionCookieOptions(maxAgeSeconds: number, secure: boolean): CookieOptions {
  return { httpOnly: true, sameSite: "lax", secure, path: "/", maxAge: maxAgeSeconds };
}

/** The local modes' session cookie (a Supabase-shaped JWT, httpOnly). */
export const LOCAL_SESSION_COOKIE = "shop-session";

/** Whether a cookie carries a session in some mode (local, or @supabase/ssr's `sb-…`). */
export function isSessionCookie(name: string): boolean {
  return name === LOCAL_SESSION_COOKIE || name.startsWith("sb-");
}
