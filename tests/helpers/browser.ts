import { parseSetCookie } from "cookie";
import { createCaller } from "@/server/api/root";
import { createContextFor, resolveContext, type TRPCContext } from "@/server/api/trpc";
import { createLocalAuth, type GoogleClient } from "@/server/adapters/local/local-auth";
import { loadSessionUser } from "@/server/auth/session-user";
import type { ShopDatabase } from "@/server/db/database";
import { headerCookieJar } from "@/server/ports/cookies";
import { newRequestLimits, RateLimiter, type RequestLimits } from "@/server/security/rate-limit";
import type { TestUser } from "./database";
import { createLocalStorage } from "@/server/adapters/local/local-storage";
import type { StoragePort } from "@/server/ports/storage";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const storageRoots = new WeakMap<ShopDatabase, string>();

/** The folder the test database's local storage writes to (one per database). */
export function testStorageRoot(db: ShopDatabase): string {
  let root = storageRoots.get(db);
  if (!root) {
    root = fs.mkdtempSync(path.join(os.tmpdir(), "shop-storage-"));
    storageRoots.set(db, root);
  }
  return root;
}

export function testStorage(db: ShopDatabase): StoragePort {
  return createLocalStorage(testStorageRoot(db), db.kysely);
}

export const TEST_SECRET = new TextEncoder().encode("test-secret-test-secret-test-secret-0123456789");

export type Caller = ReturnType<typeof createCaller>;

export function freshSignInLimits() {
  return { byEmail: new RateLimiter(5, 15 * 60_000), byAddress: new RateLimiter(20, 15 * 60_000) };
}

/**
 * A browser as the API sees it: a cookie store that every call sends and that every response's
 * Set-Cookie headers update, so sessions are tested through real cookies.
 */
export class TestBrowser {
  readonly cookies = new Map<string, string>();
  readonly #signInLimits: ReturnType<typeof freshSignInLimits>;
  readonly #requestLimits: RequestLimits;

  constructor(
    readonly db: ShopDatabase,
    readonly options: {
      address?: string;
      signInLimits?: ReturnType<typeof freshSignInLimits>;
      /** Share one set between browsers to test limits across callers; fresh by default. */
      requestLimits?: RequestLimits;
      google?: GoogleClient;
      fetch?: typeof fetch;
    } = {},
  ) {
    this.#signInLimits = options.signInLimits ?? freshSignInLimits();
    this.#requestLimits = options.requestLimits ?? newRequestLimits();
  }

  requestHeaders(): Headers {
    const headers = new Headers({
      "x-forwarded-for": this.options.address ?? "203.0.113.10",
      origin: "http://localhost:3000",
      "user-agent": "vitest",
    });
    if (this.cookies.size > 0) {
      headers.set("cookie", [...this.cookies].map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join("; "));
    }
    return headers;
  }

  /** Makes one request: builds the context from the cookies, runs `work`, keeps the Set-Cookies. */
  async call<T>(work: (caller: Caller) => Promise<T>): Promise<T> {
    const requestHeaders = this.requestHeaders();
    const responseHeaders = new Headers();
    const auth = createLocalAuth({
      db: this.db.kysely,
      cookies: headerCookieJar(requestHeaders, responseHeaders),
      requestHeaders,
      secret: TEST_SECRET,
      secureCookies: false,
      signInLimits: this.#signInLimits,
      google: this.options.google,
      fetch: this.options.fetch,
    });
    try {
      const ctx = await resolveContext(this.db, { auth, storage: testStorage(this.db) }, requestHeaders, this.#requestLimits);
      return await work(createCaller(ctx));
    } finally {
      this.absorb(responseHeaders);
    }
  }

  /** The Set-Cookie headers of a response, applied as a browser would. */
  absorb(responseHeaders: Headers) {
    for (const header of responseHeaders.getSetCookie()) {
      const cookie = parseSetCookie(header);
      const expired = cookie.maxAge !== undefined && cookie.maxAge <= 0;
      if (expired || cookie.value === "") this.cookies.delete(cookie.name);
      else this.cookies.set(cookie.name, cookie.value ?? "");
    }
  }

  /** The raw Set-Cookie headers of one call, for asserting cookie attributes. */
  async setCookiesOf(work: (caller: Caller) => Promise<unknown>): Promise<string[]> {
    const seen: string[] = [];
    const original = this.absorb.bind(this);
    this.absorb = (headers: Headers) => {
      seen.push(...headers.getSetCookie());
      original(headers);
    };
    try {
      await this.call(work);
    } finally {
      this.absorb = original;
    }
    return seen;
  }
}

/** The context of a request by `user` (or a visitor), without going through sign-in. */
export async function contextAs(
  db: ShopDatabase,
  user: TestUser | null,
  options: { storage?: StoragePort; limits?: RequestLimits; headers?: Headers } = {},
): Promise<TRPCContext> {
  const auth = createLocalAuth({
    db: db.kysely,
    cookies: headerCookieJar(new Headers()),
    requestHeaders: new Headers(),
    secret: TEST_SECRET,
    secureCookies: false,
    signInLimits: freshSignInLimits(),
  });
  const sessionUser = user ? await loadSessionUser(db, { id: user.id, email: user.email, userMetadata: {} }) : null;
  return createContextFor({
    database: db,
    user: sessionUser,
    auth,
    storage: options.storage ?? testStorage(db),
    headers: options.headers,
    limits: options.limits ?? newRequestLimits(),
  });
}

/** A caller acting as `user` (or a visitor), without going through sign-in. */
export async function callerAs(
  db: ShopDatabase,
  user: TestUser | null,
  options: { storage?: StoragePort; limits?: RequestLimits; headers?: Headers } = {},
): Promise<Caller> {
  return createCaller(await contextAs(db, user, options));
}
