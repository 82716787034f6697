import type { WhatsAppEnvironment } from "@/server/ports/messaging";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { parseSetCookie } from "cookie";
import { createCaller } from "@/server/api/root";
import { createContextFor, resolveContext, type TRPCContext } from "@/server/api/trpc";
import { SessionUsers } from "@/server/auth/session-user";
import type { ShopDatabase } from "@/server/db/database";
import type { GoogleClient } from "@/server/platform/adapters/local/local-auth";
import { createLocalStorage } from "@/server/platform/adapters/local/local-storage";
import type { SessionCache } from "@/server/platform/adapters/local/session-cache";
import { createMailTransport } from "@/server/platform/adapters/mail/transport";
import { createRequestServices } from "@/server/platform/request-services";
import { openShopProcess, type ShopProcess } from "@/server/platform/shop-process";
import { headerCookieJar } from "@/server/ports/cookies";
import type { StoragePort } from "@/server/ports/storage";
import { newRequestLimits, newSignInLimits, type RequestLimits, type SignInLimits } from "@/server/security/rate-limit";
import type { TestUser } from "./database";

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

export interface TestProcessOptions {
  signInLimits?: SignInLimits;
  requestLimits?: RequestLimits;
  google?: GoogleClient;
  fetch?: typeof fetch;
  /** The server's session cache and kept profiles; by default none: every lookup reads the database. */
  sessions?: SessionCache;
  sessionUsers?: SessionUsers;
  /** Tests run as development unless they ask for production (NODE_ENV is "test" here). */
  production?: boolean;
  /** PAYFAST_URL and PAYFAST_ITN_SOURCES (a fake PayFast); unset: PayFast's own. */
  payfast?: { url?: string; itnSources?: string[] };
  /** The environment facts the go-live checklist reads: SITE_URL https (default false) and SMTP_URL set (default: no mail). */
  siteUrlIsHttps?: boolean;
  smtpUrl?: string;
  /** WHATSAPP_* (a fake Cloud API's address, and its credentials unless a test saves them in Shop settings); unset: e-mail only while nothing is saved. */
  whatsapp?: WhatsAppEnvironment;
}

/**
 * A server process over a test database, as the platform opens one (openShopProcess) in the
 * embedded mode, with the test's signing secret, its own limits and storage folder, and no mail.
 */
export function testShopProcess(db: ShopDatabase, options: TestProcessOptions = {}): Promise<ShopProcess> {
  return openShopProcess(
    {
      mode: "embedded",
      production: options.production ?? false,
      storageRoot: testStorageRoot(db),
      signingSecret: () => TEST_SECRET,
      google: options.google,
      fetch: options.fetch,
      supabase: { url: "", anonKey: "" },
      mail: createMailTransport({ SMTP_URL: options.smtpUrl }),
      payfast: options.payfast,
      siteUrlIsHttps: options.siteUrlIsHttps,
      whatsapp: options.whatsapp,
    },
    db,
    {
      limits: options.requestLimits ?? freshRequestLimits(),
      signInLimits: options.signInLimits ?? freshSignInLimits(),
      sessionUsers: options.sessionUsers ?? new SessionUsers(db, { keep: false }),
      sessions: options.sessions,
    },
  );
}

/**
 * A browser as the API sees it: a cookie store that every call sends and that every response's
 * Set-Cookie headers update, so sessions are tested through real cookies.
 */
export class TestBrowser {
  readonly cookies = new Map<string, string>();
  readonly #shop: Promise<ShopProcess>;

  constructor(
    readonly db: ShopDatabase,
    /** Share limits, sessions or kept profiles between browsers to test them across callers; each its own by default. */
    readonly options: TestProcessOptions & { address?: string } = {},
  ) {
    this.#shop = testShopProcess(db, options);
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
    try {
      const services = createRequestServices(await this.#shop, headerCookieJar(requestHeaders, responseHeaders), requestHeaders);
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

export interface CallerOptions extends Pick<TestProcessOptions, "payfast" | "fetch" | "production" | "siteUrlIsHttps" | "smtpUrl" | "whatsapp"> {
  storage?: StoragePort;
  limits?: RequestLimits;
  headers?: Headers;
}

/** The context of a request by `user` (or a visitor), without going through sign-in. */
export async function contextAs(
  db: ShopDatabase,
  user: TestUser | null,
  options: CallerOptions = {},
): Promise<TRPCContext> {
  const shop = await testShopProcess(db, {
    requestLimits: options.limits,
    production: options.production,
    payfast: options.payfast,
    fetch: options.fetch,
    siteUrlIsHttps: options.siteUrlIsHttps,
    smtpUrl: options.smtpUrl,
    whatsapp: options.whatsapp,
  });
  // Every browser's request names the host it was sent to.
  const headers = options.headers ?? new Headers({ host: "localhost:3000" });
  const services = createRequestServices(shop, headerCookieJar(new Headers()), headers);
  const sessionUser = user ? await services.sessionUserFor({ id: user.id, email: user.email, userMetadata: {} }) : null;
  return createContextFor(options.storage ? { ...services, storage: options.storage } : services, sessionUser, headers);
}

/** A caller acting as `user` (or a visitor), without going through sign-in. */
export async function callerAs(
  db: ShopDatabase,
  user: TestUser | null,
  options: CallerOptions = {},
): Promise<Caller> {
  return createCaller(await contextAs(db, user, options));
}
