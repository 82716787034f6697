import { createClient } from "@supabase/supabase-js";
import type { SessionUser, SessionUsers } from "@/server/auth/session-user";
import type { Catalogue } from "@/server/catalogue/catalogue";
import type { OnlinePayments } from "@/server/payments/online-payments";
import type { WhatsAppSwitch } from "@/server/messaging/whatsapp-settings";
import type { ShopSettings } from "@/server/settings/shop-settings";
import type { ShopDatabase } from "@/server/db/database";
import type { AuthPort, AuthUser } from "@/server/ports/auth";
import type { CookieJar } from "@/server/ports/cookies";
import type { LivePort } from "@/server/ports/live";
import type { StoragePort } from "@/server/ports/storage";
import type { RequestLimits } from "@/server/security/rate-limit";
import { createLocalAuth } from "./adapters/local/local-auth";
import { createLocalLive } from "./adapters/local/local-live";
import { createLocalStorage } from "./adapters/local/local-storage";
import { createSupabaseAuth, supabaseServerClient } from "./adapters/supabase/supabase-auth";
import { supabaseLive } from "./adapters/supabase/supabase-live";
import { createSupabaseStorage } from "./adapters/supabase/supabase-storage";
import { getShopProcess, type ShopProcess } from "./shop-process";

/** Everything a request's context is built from, in the configured run mode. */
export interface RequestServices {
  database: ShopDatabase;
  auth: AuthPort;
  storage: StoragePort;
  live: LivePort;
  limits: RequestLimits;
  catalogue: Catalogue;
  settings: ShopSettings;
  /** The online payment provider (PayFast) with the owner's credentials. */
  payments: OnlinePayments;
  /** Whether this is a production server (NODE_ENV): the demo bank account then takes no orders. */
  production: boolean;
  /** Whether mails are sent (SMTP_URL) or only kept in the outbox. */
  mailIsSent: boolean;
  /** WhatsApp's settings in force (Shop settings, else WHATSAPP_*), kept; only whether it is on reaches a page. */
  whatsapp: WhatsAppSwitch;
  /** Whether SITE_URL is the shop's https:// address (only this fact, never the value). */
  siteUrlIsHttps: boolean;
  /** The signed-in user's profile, read as that user (the session lookup; kept for a few seconds). */
  sessionUserFor(user: AuthUser): Promise<SessionUser | null>;
  /** How many items a signed-in customer's cart holds, as the header shows it (kept too); 0 for admins. */
  cartCountFor(user: SessionUser): Promise<number>;
  /** After a user changed their own profile or cart: this process forgets what it kept of it. */
  forgetCached: SessionUsers["changed"];
}

/**
 * The services for one request over a process's shared parts (docs/architecture.md#ports-and-the-platform): the ports of the
 * run mode, each bound to this request's cookies. Pure: everything comes from `shop`, so tests
 * build their requests with it as the server does.
 */
export function createRequestServices(shop: ShopProcess, cookies: CookieJar, requestHeaders: Headers): RequestServices {
  const { config, database, sessionUsers } = shop;
  const common = {
    database,
    limits: shop.limits,
    catalogue: shop.catalogue,
    settings: shop.settings,
    payments: shop.payments,
    production: config.production,
    mailIsSent: config.mail.kind === "smtp",
    whatsapp: shop.whatsapp,
    siteUrlIsHttps: config.siteUrlIsHttps ?? false,
    sessionUserFor: (user: AuthUser) => sessionUsers.sessionUser(user),
    async cartCountFor(user: SessionUser) {
      if (user.role === "admin") return 0;
      const found = await sessionUsers.withCartCount({ id: user.id, email: user.email, userMetadata: {} });
      return found?.cartCount ?? 0;
    },
    forgetCached: (userId: string, what: "profile" | "cart") => sessionUsers.changed(userId, what),
  };
  if (config.mode === "supabase") {
    const client = supabaseServerClient(config.supabase, cookies);
    return {
      ...common,
      auth: createSupabaseAuth(config.supabase, cookies, client),
      storage: createSupabaseStorage({ url: config.supabase.url, client, serviceRoleKey: config.supabase.serviceRoleKey }),
      live: supabaseLive,
    };
  }
  return {
    ...common,
    auth: createLocalAuth({
      db: database.kysely,
      cookies,
      requestHeaders,
      secret: config.signingSecret(),
      secureCookies: config.production,
      google: config.google,
      fetch: config.fetch,
      signInLimits: shop.signInLimits,
      sessions: shop.sessions,
    }),
    storage: createLocalStorage(config.storageRoot, database.kysely),
    live: createLocalLive(database),
  };
}

/** The services for one request of this server process, whose cookies `cookies` reads and writes. */
export async function requestServices(cookies: CookieJar, requestHeaders: Headers): Promise<RequestServices> {
  return createRequestServices(await getShopProcess(), cookies, requestHeaders);
}

/** Storage with the server's own rights, for its own tasks (the retention purge), never for a request. */
export function serviceStorage(shop: ShopProcess): StoragePort {
  const { config, database } = shop;
  if (config.mode !== "supabase") return createLocalStorage(config.storageRoot, database.kysely);
  const { url, anonKey, serviceRoleKey } = config.supabase;
  return createSupabaseStorage({ url, client: createClient(url, serviceRoleKey ?? anonKey, { auth: { persistSession: false, autoRefreshToken: false } }), serviceRoleKey });
}
