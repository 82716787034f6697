import path from "node:path";
import { createClient } from "@supabase/supabase-js";
import { connection } from "next/server";
import { env, runMode } from "@/env";
import { sessionUsersFor, type SessionUser, type SessionUsers } from "@/server/auth/session-user";
import { catalogueFor, type Catalogue } from "@/server/catalogue/catalogue";
import { drainOutbox } from "@/server/mail/outbox";
import { mailShopFrom } from "@/server/mail/shop";
import { createMailTransport } from "./adapters/mail/transport";
import { logNewMails, startMailWorker } from "@/server/mail/worker";
import type { MailTransport } from "@/server/ports/mail";
import { startDatabase } from "@/server/db";
import type { ShopDatabase } from "@/server/db/database";
import { startRetentionTimer } from "@/server/privacy/retention";
import { startUnpaidOrderTimer } from "@/server/orders/unpaid-orders";
import type { AuthPort, AuthUser } from "@/server/ports/auth";
import type { CookieJar } from "@/server/ports/cookies";
import type { LiveClientConfig, LivePort } from "@/server/ports/live";
import { localFileUrl, type PublicUrl, type StoragePort } from "@/server/ports/storage";
import { newRequestLimits, newSignInLimits, type RequestLimits, type SignInLimits } from "@/server/security/rate-limit";
import { createLocalAuth, pendingOAuthNext } from "./adapters/local/local-auth";
import { sessionCacheFor } from "./adapters/local/session-cache";
import { createLocalLive } from "./adapters/local/local-live";
import { createLocalStorage, sweepUnclaimedUploads } from "./adapters/local/local-storage";
import { localSigningSecret, supabaseConfig } from "./process-config";
import { pageViewerData } from "@/server/auth/page-viewer";
import { provideSignedInViewers, type SignedInViewer } from "@/server/http/signed-in-pages";
import { headerCookieJar } from "@/server/ports/cookies";
import { createSupabaseAuth, supabaseServerClient } from "./adapters/supabase/supabase-auth";
import { supabaseLive } from "./adapters/supabase/supabase-live";
import { createSupabaseStorage, supabasePublicUrl } from "./adapters/supabase/supabase-storage";

/**
 * The one composition point (ARCHITECTURE §3): the only code that imports adapters. It opens the
 * process's database and hands out the ports for the configured run mode to the tRPC context,
 * the proxy and route handlers. Adding a run mode means adding adapters and a branch here.
 */

interface ProcessState {
  database?: Promise<ShopDatabase>;
}

const STATE_KEY = Symbol.for("our-world-shop.platform");
const globalForPlatform = globalThis as typeof globalThis & { [STATE_KEY]?: ProcessState };
const state: ProcessState = (globalForPlatform[STATE_KEY] ??= {});

/** The shop's limits: one set for every process on the database (they are counted in it). */
const requestLimits: RequestLimits = newRequestLimits();
const signInLimits: SignInLimits = newSignInLimits();

/** Where the local adapter keeps uploaded files. */
export function localStorageRoot(dataDir: string = env.DATA_DIR): string {
  return path.resolve(dataDir, "storage");
}

/**
 * The process-wide database, started once on first use and awaited by every request that needs
 * it (migrated and seeded in the local modes). Kept on globalThis so dev-mode hot reloads and
 * the proxy's separate bundle reuse it instead of opening a second PGlite.
 */
export function getDatabase(): Promise<ShopDatabase> {
  state.database ??= (async () => {
    const database = await startDatabase();
    if (runMode() !== "supabase") {
      // Leftovers of requests a crash cut short. Local storage lives on this server's disk, so no
      // upload is in flight before it serves its first request: everything unclaimed goes.
      const swept = await sweepUnclaimedUploads(localStorageRoot(), database.kysely, new Date());
      if (swept.rows > 0 || swept.files > 0) {
        console.info(`[storage] removed ${swept.rows} unclaimed upload(s) and ${swept.files} file(s) left by interrupted requests`);
      }
    }
    // Listen for catalogue changes from the start, so kept pages of this process hear of changes
    // other processes make even before this one reads the catalogue; likewise for sessions,
    // profiles and cart counts, before the first is kept.
    await catalogueFor(database, publicFileUrl);
    await sessionUsersFor(database);
    if (runMode() !== "supabase") await sessionCacheFor(database);
    // From now on the proxy can serve signed-in users' storefront pages from the kept templates.
    provideSignedInViewers(signedInViewerOf);
    // The unpaid-order policy holds even while no admin opens Order Management (unref'd timer).
    startUnpaidOrderTimer(database, async () => (await (await catalogueFor(database, publicFileUrl)).settings()).unpaidOrderDays);
    // What the privacy notice says is kept no longer goes, daily (proof files through the storage port).
    startRetentionTimer(database, () => serviceStorage(database));
    // Mail: the outbox worker when SMTP is configured; otherwise the mails wait in the outbox.
    const transport = mailTransport();
    const shop = mailShopOf(database);
    if (transport.kind === "smtp") startMailWorker(database, { transport, shop });
    else if (env.NODE_ENV === "development") logNewMails(database, shop);
    return database;
  })().catch((error: unknown) => {
    state.database = undefined;
    throw error;
  });
  return state.database;
}

/**
 * Who is signed in on a page load, for the proxy's kept templates: the local session (kept in
 * memory, see session-cache.ts), the profile and the cart count (kept too). Null where the
 * page must be rendered for the caller: no valid session, or Supabase mode (its sessions are
 * Supabase's to check, which the rendered page does).
 */
async function signedInViewerOf(cookieHeader: string): Promise<SignedInViewer | null> {
  if (runMode() === "supabase") return null;
  const database = await getDatabase();
  const headers = new Headers({ cookie: cookieHeader });
  const auth = createLocalAuth({
    db: database.kysely,
    // Read only: the proxy has already renewed the token if it needed it.
    cookies: headerCookieJar(headers),
    requestHeaders: headers,
    secret: localSigningSecret(),
    secureCookies: env.NODE_ENV === "production",
    signInLimits,
    sessions: await sessionCacheFor(database),
  });
  const user = await auth.currentUser();
  if (!user) return null;
  const found = await (await sessionUsersFor(database)).withCartCount(user);
  return found ? { role: found.user.role, data: pageViewerData(found.user, found.cartCount, publicFileUrl) } : null;
}

/** The mail transport (ARCHITECTURE §3): SMTP when SMTP_URL is set, in every mode; else none. */
function mailTransport(): MailTransport {
  return createMailTransport(env);
}

function mailShopOf(database: ShopDatabase) {
  return async () => mailShopFrom(await (await catalogueFor(database, publicFileUrl)).settings());
}

/** Storage with the server's own rights, for its own tasks (the retention purge), never for a request. */
function serviceStorage(database: ShopDatabase): StoragePort {
  if (runMode() !== "supabase") return createLocalStorage(localStorageRoot(), database.kysely);
  const { url, anonKey, serviceRoleKey } = supabaseConfig();
  return createSupabaseStorage({ url, client: createClient(url, serviceRoleKey ?? anonKey, { auth: { persistSession: false, autoRefreshToken: false } }), serviceRoleKey });
}

/** Whether mails are sent at all (the Outbox page says when they are only kept). */
export function mailIsSent(): boolean {
  return mailTransport().kind === "smtp";
}

/** Delivers the outbox once, until nothing is due: the serverless schedule's route. */
export async function drainMailOutbox() {
  const database = await getDatabase();
  return drainOutbox({ db: database.kysely, transport: mailTransport(), shop: mailShopOf(database) });
}

/** A public file's URL in this run mode: `/files/...` locally, Supabase Storage's public URL there. */
export const publicFileUrl: PublicUrl = (object) =>
  runMode() === "supabase" ? supabasePublicUrl(supabaseConfig().url, object) : localFileUrl(object);

/**
 * The storefront's catalogue (the one read path, with its cache), for pages and the sitemap.
 * `connection()` first: these pages render per request, so `next build` stops before opening
 * the database (ARCHITECTURE §11) instead of migrating one while it tries to prerender.
 */
export async function getCatalogue(): Promise<Catalogue> {
  await connection();
  return catalogueFor(await getDatabase(), publicFileUrl);
}


/** How many items a signed-in customer's cart holds, as the header shows it (kept, see session-user.ts). */
export async function headerCartCount(user: SessionUser): Promise<number> {
  if (user.role === "admin") return 0;
  const found = await (await sessionUsersFor(await getDatabase())).withCartCount({ id: user.id, email: user.email, userMetadata: {} });
  return found?.cartCount ?? 0;
}

/** Everything a request's context is built from, in the configured run mode. */
export interface RequestServices {
  database: ShopDatabase;
  auth: AuthPort;
  storage: StoragePort;
  live: LivePort;
  limits: RequestLimits;
  catalogue: Catalogue;
  /** Whether this is a production server (NODE_ENV): the demo bank account then takes no orders. */
  production: boolean;
  /** Whether mails are sent (SMTP_URL) or only kept in the outbox. */
  mailIsSent: boolean;
  /** The signed-in user's profile, read as that user (the session lookup; kept for a few seconds). */
  sessionUserFor(user: AuthUser): Promise<SessionUser | null>;
  /** After a user changed their own profile or cart: this process forgets what it kept of it. */
  forgetCached: SessionUsers["changed"];
}

/** The services for one request, whose cookies `cookies` reads and writes. */
export async function requestServices(cookies: CookieJar, requestHeaders: Headers): Promise<RequestServices> {
  const database = await getDatabase();
  const catalogue = await getCatalogue();
  const sessionUsers = await sessionUsersFor(database);
  const common = {
    database,
    limits: requestLimits,
    catalogue,
    production: env.NODE_ENV === "production",
    mailIsSent: mailIsSent(),
    sessionUserFor: (user: AuthUser) => sessionUsers.sessionUser(user),
    forgetCached: (userId: string, what: "profile" | "cart") => sessionUsers.changed(userId, what),
  };
  if (runMode() === "supabase") {
    const config = supabaseConfig();
    const client = supabaseServerClient(config, cookies);
    return {
      ...common,
      auth: createSupabaseAuth(config, cookies, client),
      storage: createSupabaseStorage({ url: config.url, client, serviceRoleKey: config.serviceRoleKey }),
      live: supabaseLive,
    };
  }
  return {
    ...common,
    auth: createLocalAuth({
      db: database.kysely,
      cookies,
      requestHeaders,
      secret: localSigningSecret(),
      secureCookies: env.NODE_ENV === "production",
      google: googleClient(),
      signInLimits,
      sessions: await sessionCacheFor(database),
    }),
    storage: createLocalStorage(localStorageRoot(), database.kysely),
    live: createLocalLive(database),
  };
}

function googleClient() {
  return env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET ? { clientId: env.GOOGLE_CLIENT_ID, clientSecret: env.GOOGLE_CLIENT_SECRET } : undefined;
}

/** What the browser's live hook needs: Supabase Realtime's public settings, or the local SSE stream. */
export function liveClientConfig(): LiveClientConfig {
  if (runMode() !== "supabase") return { mode: "local" };
  const { url, anonKey } = supabaseConfig();
  return { mode: "supabase", url, anonKey };
}

/** Where a Google sign-in started in the local modes was going (kept in a cookie while away). */
export function pendingOAuthDestination(cookies: CookieJar): string | undefined {
  return runMode() === "supabase" ? undefined : pendingOAuthNext(cookies);
}
