import { parseSetCookie } from "cookie";
import { createCaller } from "@/server/api/root";
import { randomUUID } from "node:crypto";
import { createContextFor, resolveContext, type TRPCContext } from "@/server/api/trpc";
import { catalogueFor } from "@/server/catalogue/catalogue";
import type { RequestServices } from "@/server/platform";
import { createLocalLive } from "@/server/platform/adapters/local/local-live";
import type { AuthPort } from "@/server/ports/auth";
import { localFileUrl } from "@/server/ports/storage";
import { createLocalAuth, type GoogleClient } from "@/server/platform/adapters/local/local-auth";
import { loadSessionUser, type SessionUsers } from "@/server/auth/session-user";
import type { SessionCache } from "@/server/platform/adapters/local/session-cache";
import type { ShopDatabase } from "@/server/db/database";
import { headerCookieJar } from "@/server/ports/cookies";
import { newRequestLimits, newSignInLimits, type RequestLimits, type SignInLimits } from "@/server/security/rate-limit";
import type { TestUser } from "./database";
import { createLocalStorage } from "@/server/platform/adapters/local/local-storage";
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

/** Sign-in limits of their own (a scope no other test shares), counted in the test's database. */
export function freshSignInLimits(): SignInLimits {
  return newSignInLimits(randomUUID());
}

/** Request limits of their own (a scope no other test shares). */
export function freshRequestLimits(): RequestLimits {
  return newRequestLimits(randomUUID());
}

/** What the platform hands a request, built over a test database with the local adapters. */
export async function testServices(
  db: ShopDatabase,
  parts: { auth: AuthPort; storage?: StoragePort; limits?: RequestLimits; production?: boolean; sessionUsers?: SessionUsers },
): Promise<RequestServices> {
  const { sessionUsers } = parts;
  return {
    database: db,
    auth: parts.auth,
    storage: parts.storage ?? testStorage(db),
    live: createLocalLive(db),
    limits: parts.limits ?? freshRequestLimits(),
    catalogue: await catalogueFor(db, localFileUrl),
    mailIsSent: false,
    // Tests run as development unless they ask for production (NODE_ENV is "test" here).
    production: parts.production ?? false,
    // The server's caches where a test asks for them; else every lookup reads the database.
    sessionUserFor: (user) => (sessionUsers ? sessionUsers.sessionUser(user) : loadSessionUser(db, user)),
    forgetCached: (userId, what) => sessionUsers?.changed(userId, what),
  };
}

/**
 * A browser as the API sees it: a cookie store that every call sends and that every response's
 * Set-Cookie headers update, so sessions are tested through real cookies.
 */
export class TestBrowser {
  readonly cookies = new Map<string, string>();
  readonly #signInLimits: SignInLimits;
  readonly #requestLimits: RequestLimits;

  constructor(
    readonly db: ShopDatabase,
    readonly options: {
      address?: string;
      signInLimits?: SignInLimits;
      /** Share one set between browsers to test limits across callers; fresh by default. */
      requestLimits?: RequestLimits;
      google?: GoogleClient;
      fetch?: typeof fetch;
      /** The server's session cache and kept profiles, shared by the browsers of a test; none by default. */
      sessions?: SessionCache;
      sessionUsers?: SessionUsers;
    } = {},
  ) {
    this.#signInLimits = options.signInLimits ?? freshSignInLimits();
    this.#requestLimits = options.requestLimits ?? freshRequestLimits();
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
      sessions: this.options.sessions,
    });
    try {
      const services = await testServices(this.db, { auth, limits: this.#requestLimits, sessionUsers: this.options.sessionUsers });
      const ctx = await resolveContext(services, requestHeaders);
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
  options: { storage?: StoragePort; limits?: RequestLimits; headers?: Headers; production?: boolean } = {},
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
  return createContextFor(
    await testServices(db, { auth, storage: options.storage, limits: options.limits, production: options.production }),
    sessionUser,
    options.headers,
  );
}

/** A caller acting as `user` (or a visitor), without going through sign-in. */
export async function callerAs(
  db: ShopDatabase,
  user: TestUser | null,
  options: { storage?: StoragePort; limits?: RequestLimits; headers?: Headers; production?: boolean } = {},
): Promise<Caller> {
  return createCaller(await contextAs(db, user, options));
}
